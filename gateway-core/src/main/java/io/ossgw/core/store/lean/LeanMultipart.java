package io.ossgw.core.store.lean;

import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.UploadListing;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.store.aliyun.KeyCodec;
import io.ossgw.core.store.aliyun.UploadCrc;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * InitiateMultipartUpload, UploadPartCopy, CompleteMultipartUpload and AbortMultipartUpload over the lean client
 * (issue 22: on the SDK these built the SDK's whole client, Apache HttpClient and all, at a gateway's first large write
 * and ran its request path interpreted: about a tenth of a fresh gateway's first GiB written, docs/benchmarks.md
 * "Twelfth pass").
 * The wire follows reference/oss-api.md §2.2 and the OSS API docs, as aliyun-sdk-oss sends it:
 * <ul>
 *   <li>InitiateMultipartUpload: {@code POST /key?uploads} with Content-Type and {@code x-oss-meta-*},
 *       {@code Content-Length: 0}; the upload id from {@code <InitiateMultipartUploadResult><UploadId>}.
 *   <li>UploadPartCopy: {@code PUT /key?partNumber=n&uploadId=U} with {@code x-oss-copy-source} (as CopyObject's),
 *       {@code x-oss-copy-source-range: bytes=first-last} and, given the source's ETag,
 *       {@code x-oss-copy-source-if-match}; the part's ETag from {@code <CopyPartResult><ETag>}. Its CRC-64 is left
 *       unknown, as on the SDK path, so an upload with a copied part is completed without the whole-object check.
 *   <li>CompleteMultipartUpload: {@code POST /key?uploadId=U} with
 *       {@code <CompleteMultipartUpload><Part><PartNumber>n</PartNumber><ETag>"etag"</ETag></Part>...} in
 *       ascending part order (OSS answers InvalidPartOrder otherwise); the ETag from
 *       {@code <CompleteMultipartUploadResult><ETag>}, and the whole object's {@code x-oss-hash-crc64ecma} checked against the parts' CRCs combined (as the SDK path
 *       does, {@link UploadCrc#check}: a mismatch is a transient {@code InconsistentCRC}).
 *   <li>AbortMultipartUpload: {@code DELETE /key?uploadId=U}, 204; NoSuchUpload is not an error (the upload is gone).
 *   <li>ListMultipartUploads: {@code GET /?uploads&prefix=P&key-marker=K&upload-id-marker=U&max-uploads=N
 *       &encoding-type=url}; {@code <ListMultipartUploadsResult>} with IsTruncated, NextKeyMarker, NextUploadIdMarker
 *       and {@code <Upload>} entries (Key, UploadId, Initiated). The keys and NextKeyMarker come percent-encoded
 *       ({@code encoding-type=url}, so a key with a control character that XML cannot carry still lists) and are
 *       decoded as the listing's are ({@link KeyCodec}).
 * </ul>
 * Initiate and Complete are not sent a second time by the client when they meet a stale keep-alive connection
 * ({@link LeanOssClient#exchange(String, String, Map, Map, ContentSource, LeanOssClient.Reader, String, boolean)}):
 * the retry layer above decides, knowing the first attempt's outcome is unknown.
 */
final class LeanMultipart {
  private static final int MAX_REPLY = 1 << 20;
  /** A page of 1,000 uploads with keys of 1,023 bytes percent-encoded is about 3.3 MB. */
  private static final int MAX_LIST_REPLY = 8 << 20;

  private final LeanOssClient client;
  private final String bucket;

  LeanMultipart(LeanOssClient client, String bucket) {
    this.client = client;
    this.bucket = bucket;
  }

  /**
   * @param metaHeaders Content-Type and {@code x-oss-meta-*} of the object the upload makes (values without control characters, UTF-8 on the wire)
   * @return the upload id
   * @throws StoreException on an error reply, a transport failure, or a reply without an UploadId
   */
  String initiate(String key, Map<String, String> metaHeaders) {
    String what = "InitiateMultipartUpload " + key;
    return client.exchange("POST", key, Map.of("uploads", ""), metaHeaders, ContentSource.ofBytes(new byte[0]),
        (c, r, crc) -> {
          String id = LeanKeyOps.element(new String(c.readBody(r, MAX_REPLY), StandardCharsets.UTF_8), "UploadId");
          if (id == null || id.isEmpty()) {
            throw new StoreException(StoreErrorKind.OTHER, "MalformedResponse", 0, r.header("x-oss-request-id"),
                what + ": no UploadId in the reply", null);
          }
          return id;
        }, what, false);
  }

  /**
   * Part {@code partNumber} of the upload made server-side from bytes [offset, offset + length) of {@code sourceKey}.
   *
   * @param sourceEtag the source's ETag (unquoted) the copy requires, or null for any
   * @param length bytes, at least 1
   * @throws StoreException on an error reply (PreconditionFailed when the source changed, NoSuchKey, NoSuchUpload,
   *     InvalidArgument for an Appendable source) or a transport failure
   */
  PartETag uploadPartCopy(String sourceKey, String sourceEtag, long offset, long length, String key, String uploadId,
      int partNumber) {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("partNumber", Integer.toString(partNumber));
    q.put("uploadId", uploadId);
    Map<String, String> h = new LinkedHashMap<>();
    h.put("x-oss-copy-source", LeanKeyOps.copySource(bucket, sourceKey));
    h.put("x-oss-copy-source-range", "bytes=" + offset + "-" + (offset + length - 1));
    if (sourceEtag != null) {
      h.put("x-oss-copy-source-if-match", "\"" + sourceEtag + "\"");
    }
    String what = "UploadPartCopy " + sourceKey + " -> " + key + " #" + partNumber;
    return client.exchange("PUT", key, q, h, ContentSource.ofBytes(new byte[0]), (c, r, crc) -> {
      String etag = LeanKeyOps.element(new String(c.readBody(r, MAX_REPLY), StandardCharsets.UTF_8), "ETag");
      return new PartETag(partNumber, LeanKeyOps.unquote(etag != null ? etag : r.header("etag")), length);
    }, what);
  }

  /**
   * @param parts every part of the upload, in any order
   * @return the object's ETag (unquoted) and the CRC-64 OSS reported for it
   * @throws StoreException on an error reply (InvalidPart, InvalidPartOrder, EntityTooSmall, NoSuchUpload), a
   *     transport failure, or a CRC-64 that does not match the parts'
   */
  WriteResult complete(String key, String uploadId, List<PartETag> parts) {
    List<PartETag> ordered = new ArrayList<>(parts);
    ordered.sort(Comparator.comparingInt(PartETag::partNumber));
    String what = "CompleteMultipartUpload " + key;
    return client.exchange("POST", key, Map.of("uploadId", uploadId), Map.of("content-type", "application/xml"),
        ContentSource.ofBytes(completeBody(ordered)), (c, r, crc) -> {
          String xml = new String(c.readBody(r, MAX_REPLY), StandardCharsets.UTF_8);
          String server = r.header("x-oss-hash-crc64ecma");
          UploadCrc.check(UploadCrc.combine(ordered), server == null ? null : Long.parseUnsignedLong(server),
              r.header("x-oss-request-id"), what);
          String etag = LeanKeyOps.element(xml, "ETag");
          return new WriteResult(LeanKeyOps.unquote(etag != null ? etag : r.header("etag")), server);
        }, what, false);
  }

  /** Aborts the upload; one already gone (NoSuchUpload) is not an error. */
  void abort(String key, String uploadId) {
    LeanKeyOps.delete(client, key, Map.of("uploadId", uploadId), "AbortMultipartUpload " + key,
        StoreErrorKind.NO_SUCH_UPLOAD);
  }

  /**
   * One page of ListMultipartUploads.
   *
   * @param prefix the keys' prefix ("" or null for all)
   * @param keyMarker the previous page's NextKeyMarker, or null for the first page
   * @param uploadIdMarker the previous page's NextUploadIdMarker, or null
   * @param maxUploads 1 to 1,000
   * @throws StoreException on an error reply, a transport failure, or a reply that is not a listing
   */
  UploadListing list(String prefix, String keyMarker, String uploadIdMarker, int maxUploads) {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("uploads", "");
    if (prefix != null && !prefix.isEmpty()) {
      q.put("prefix", prefix);
    }
    if (keyMarker != null) {
      q.put("key-marker", keyMarker);
    }
    if (uploadIdMarker != null) {
      q.put("upload-id-marker", uploadIdMarker);
    }
    q.put("max-uploads", Integer.toString(maxUploads));
    q.put("encoding-type", "url");
    String what = "ListMultipartUploads " + prefix;
    return client.exchange("GET", "", q, Map.of(), null,
        (c, r, crc) -> parseUploads(new String(c.readBody(r, MAX_LIST_REPLY), StandardCharsets.UTF_8), what), what);
  }

  /** A {@code <ListMultipartUploadsResult>} requested with {@code encoding-type=url}, its keys decoded. */
  static UploadListing parseUploads(String xml, String what) {
    if (!xml.contains("<ListMultipartUploadsResult")) {
      throw malformed(what, "no ListMultipartUploadsResult");
    }
    List<UploadListing.Upload> uploads = new ArrayList<>();
    int at = 0;
    while ((at = xml.indexOf("<Upload>", at)) >= 0) {
      int end = xml.indexOf("</Upload>", at);
      if (end < 0) {
        throw malformed(what, "an unterminated <Upload>");
      }
      String entry = xml.substring(at, end);
      String key = LeanKeyOps.element(entry, "Key");
      String id = LeanKeyOps.element(entry, "UploadId");
      if (key == null || id == null || id.isEmpty()) {
        throw malformed(what, "an <Upload> without its Key or UploadId");
      }
      String initiated = LeanKeyOps.element(entry, "Initiated");
      try {
        uploads.add(new UploadListing.Upload(KeyCodec.decode(key), id,
            initiated == null || initiated.isEmpty() ? null : Instant.parse(initiated)));
      } catch (DateTimeParseException e) {
        throw malformed(what, "Initiated " + initiated);
      }
      at = end;
    }
    boolean truncated = "true".equals(LeanKeyOps.element(xml, "IsTruncated"));
    String nextKey = LeanKeyOps.element(xml, "NextKeyMarker");
    String nextId = LeanKeyOps.element(xml, "NextUploadIdMarker");
    return new UploadListing(uploads, truncated ? KeyCodec.decode(nextKey) : null, truncated ? nextId : null,
        truncated);
  }

  private static StoreException malformed(String what, String why) {
    return new StoreException(StoreErrorKind.OTHER, "MalformedResponse", 0, null, what + ": " + why, null);
  }

  /** The request body of CompleteMultipartUpload; ETags quoted as OSS gives them (as {@code &quot;}, as the SDK). */
  static byte[] completeBody(List<PartETag> ordered) {
    StringBuilder sb = new StringBuilder(64 + ordered.size() * 96);
    sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?><CompleteMultipartUpload>");
    for (PartETag p : ordered) {
      sb.append("<Part><PartNumber>").append(p.partNumber()).append("</PartNumber><ETag>&quot;");
      if (!LeanKeyOps.appendXmlText(sb, LeanKeyOps.unquote(p.etag()))) {
        throw new StoreException(StoreErrorKind.INVALID_REQUEST, "InvalidPart", 0, null,
            "CompleteMultipartUpload: the ETag of part " + p.partNumber() + " cannot travel in XML", null);
      }
      sb.append("&quot;</ETag></Part>");
    }
    return sb.append("</CompleteMultipartUpload>").toString().getBytes(StandardCharsets.UTF_8);
  }
}
