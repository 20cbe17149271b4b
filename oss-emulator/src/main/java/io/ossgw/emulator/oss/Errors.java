package io.ossgw.emulator.oss;

/**
 * Factories for the OSS errors the emulator returns (codes and statuses per reference/oss-api.md §2.3;
 * EC values from the OSS error-code pages where known).
 */
public final class Errors {
    private Errors() {
    }

    public static OssException noSuchBucket(String bucket) {
        return new OssException(404, "NoSuchBucket", "The specified bucket does not exist.", "0015-00000101")
                .with("BucketName", bucket);
    }

    public static OssException noSuchKey(String key) {
        return new OssException(404, "NoSuchKey", "The specified key does not exist.", "0026-00000001")
                .with("Key", key);
    }

    public static OssException noSuchUpload(String uploadId) {
        return new OssException(404, "NoSuchUpload",
                "The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.",
                "0042-00000002").with("UploadId", uploadId);
    }

    public static OssException invalidArgument(String message, String name, String value) {
        return new OssException(400, "InvalidArgument", message, "0016-00000501")
                .with("ArgumentName", name).with("ArgumentValue", value);
    }

    public static OssException missingArgument(String message, String name) {
        return new OssException(400, "MissingArgument", message, null).with("ArgumentName", name);
    }

    public static OssException invalidDigest(String message) {
        return new OssException(400, "InvalidDigest", message, "0016-00000402");
    }

    public static OssException malformedXml(String message) {
        return new OssException(400, "MalformedXML", message, "0016-00000702");
    }

    public static OssException invalidBucketName(String bucket) {
        return new OssException(400, "InvalidBucketName", "The specified bucket is not valid.", "0015-00000001")
                .with("BucketName", bucket);
    }

    public static OssException invalidObjectName(String message, String ec) {
        return new OssException(400, "InvalidObjectName", message, ec);
    }

    public static OssException entityTooSmall(int partNumber) {
        return new OssException(400, "EntityTooSmall",
                "Your proposed upload smaller than the minimum allowed size.", "0042-00000213")
                .with("PartNumber", Integer.toString(partNumber));
    }

    public static OssException invalidPart(int partNumber, String etag) {
        return new OssException(400, "InvalidPart",
                "One or more of the specified parts could not be found or the specified entity tag might not have matched the part's entity tag.",
                "0042-00000208").with("PartNumber", Integer.toString(partNumber)).with("ETag", etag);
    }

    public static OssException invalidPartOrder() {
        return new OssException(400, "InvalidPartOrder",
                "The list of parts was not in ascending order. Parts list must specified in order by part number.",
                "0042-00000209");
    }

    public static OssException fileAlreadyExists(String key) {
        return new OssException(409, "FileAlreadyExists", "The object you specified already exists and can not be overwritten.",
                "0026-00000007").with("Key", key);
    }

    public static OssException positionNotEqualToLength(long next) {
        return new OssException(409, "PositionNotEqualToLength",
                "Position is not equal to file length", "0026-00000016")
                .header("x-oss-next-append-position", Long.toString(next));
    }

    public static OssException objectNotAppendable() {
        return new OssException(409, "ObjectNotAppendable", "The operation is not valid for the object type.",
                "0026-00000015");
    }

    public static OssException bucketAlreadyExists(String bucket) {
        return new OssException(409, "BucketAlreadyExists",
                "The requested bucket name is not available. The bucket namespace is shared by all users of the OSS system. Please select a different name and try again.",
                "0015-00000104").with("BucketName", bucket);
    }

    public static OssException bucketNotEmpty(String bucket) {
        return new OssException(409, "BucketNotEmpty", "The bucket you tried to delete is not empty.", "0015-00000301")
                .with("BucketName", bucket);
    }

    public static OssException invalidRange() {
        return new OssException(416, "InvalidRange", "The requested range cannot be satisfied", "0030-00000002");
    }

    public static OssException preconditionFailed(String condition) {
        return new OssException(412, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold",
                "0026-00000009").with("Condition", condition);
    }

    public static OssException accessDenied(String message) {
        return new OssException(403, "AccessDenied", message, "0003-00000002");
    }

    public static OssException invalidAccessKeyId(String ak) {
        return new OssException(403, "InvalidAccessKeyId", "The OSS Access Key Id you provided does not exist in our records.",
                "0002-00000902").with("OSSAccessKeyId", ak);
    }

    public static OssException signatureDoesNotMatch(String ak, String provided, String stringToSign, String ec) {
        return new OssException(403, "SignatureDoesNotMatch",
                "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
                ec).with("OSSAccessKeyId", ak).with("SignatureProvided", provided).with("StringToSign", stringToSign);
    }

    public static OssException notImplemented(String what) {
        return new OssException(501, "NotImplemented", "The emulator does not implement " + what, null);
    }

    /**
     * The emulator's memory store is full ({@code --memory-limit}). OSS has no documented quota error for a bucket
     * (reference/oss-api.md §2.3), so this is the emulator's own: HTTP 507 Insufficient Storage, code
     * {@code InsufficientStorage} (ossgw maps the unknown code to a non-retried error: EIO).
     */
    public static OssException insufficientStorage(long wanted, long used, long limit) {
        return new OssException(507, "InsufficientStorage", "The emulator's memory store is full: " + wanted
                + " more bytes would exceed --memory-limit " + limit + " (" + used + " in use).", null)
                .with("MemoryLimit", Long.toString(limit));
    }

    /** 503 SlowDown: OSS's "reduce your request rate"; clients retry it (reference/oss-api.md §2.3 and §5). */
    public static OssException slowDown(String message) {
        return new OssException(503, "SlowDown", message, null);
    }

    public static OssException internal(String message) {
        return new OssException(500, "InternalError", message, null);
    }
}
