package io.ossgw.emulator.oss;

/**
 * Maps a request to its OSS API operation name (the counter key): method, bucket/object level and the
 * sub-resource parameters decide, as in reference/oss-api.md §2.2.
 */
final class Router {
    private Router() {
    }

    static String operation(OssRequest r) {
        String m = r.method();
        if (r.bucket() == null) {
            return m.equals("GET") ? "ListBuckets" : "Unsupported";
        }
        if (r.key() == null) {
            return switch (m) {
                case "PUT" -> r.has("acl") ? "PutBucketAcl" : "PutBucket";
                case "GET" -> r.has("acl") ? "GetBucketAcl"
                        : r.has("bucketInfo") ? "GetBucketInfo"
                        : r.has("location") ? "GetBucketLocation"
                        : r.has("uploads") ? "ListMultipartUploads"
                        : "2".equals(r.param("list-type")) ? "ListObjectsV2"
                        : "ListObjects";
                case "POST" -> r.has("delete") ? "DeleteMultipleObjects" : "Unsupported";
                case "DELETE" -> "DeleteBucket";
                case "HEAD" -> "HeadBucket";
                default -> "Unsupported";
            };
        }
        return switch (m) {
            case "PUT" -> r.has("uploadId") && r.has("partNumber")
                    ? (r.header("x-oss-copy-source") != null ? "UploadPartCopy" : "UploadPart")
                    : r.has("acl") ? "PutObjectAcl"
                    : r.header("x-oss-copy-source") != null ? "CopyObject"
                    : "PutObject";
            case "GET" -> r.has("acl") ? "GetObjectAcl" : r.has("uploadId") ? "ListParts" : "GetObject";
            case "HEAD" -> r.has("objectMeta") ? "GetObjectMeta" : "HeadObject";
            case "POST" -> r.has("uploads") ? "InitiateMultipartUpload"
                    : r.has("uploadId") ? "CompleteMultipartUpload"
                    : r.has("append") ? "AppendObject"
                    : "Unsupported";
            case "DELETE" -> r.has("uploadId") ? "AbortMultipartUpload" : "DeleteObject";
            default -> "Unsupported";
        };
    }
}
