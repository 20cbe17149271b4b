package io.ossgw.core.store.aliyun;

import com.aliyun.oss.OSS;
import com.aliyun.oss.model.AbortMultipartUploadRequest;
import com.aliyun.oss.model.AppendObjectRequest;
import com.aliyun.oss.model.AppendObjectResult;
import com.aliyun.oss.model.CompleteMultipartUploadRequest;
import com.aliyun.oss.model.CompleteMultipartUploadResult;
import com.aliyun.oss.model.CopyObjectRequest;
import com.aliyun.oss.model.CopyObjectResult;
import com.aliyun.oss.model.DeleteObjectsRequest;
import com.aliyun.oss.model.DeleteObjectsResult;
import com.aliyun.oss.model.GetObjectRequest;
import com.aliyun.oss.model.InitiateMultipartUploadRequest;
import com.aliyun.oss.model.ListMultipartUploadsRequest;
import com.aliyun.oss.model.ListObjectsV2Request;
import com.aliyun.oss.model.ListObjectsV2Result;
import com.aliyun.oss.model.MultipartUpload;
import com.aliyun.oss.model.MultipartUploadListing;
import com.aliyun.oss.model.OSSObject;
import com.aliyun.oss.model.OSSObjectSummary;
import com.aliyun.oss.model.ObjectMetadata;
import com.aliyun.oss.model.PutObjectRequest;
import com.aliyun.oss.model.PutObjectResult;
import com.aliyun.oss.model.UploadPartCopyRequest;
import com.aliyun.oss.model.UploadPartRequest;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.store.AppendResult;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ListedObject;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.RangeRead;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.UploadListing;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link ObjectStore} over aliyun-sdk-oss 3.18.5.
 *
 * <p>Two SDK clients share one configuration, each built on its first use: {@code client} for metadata and writes,
 * and {@code readClient} for ranged GETs. Both have the SDK's CRC-64 check off: uploads are checked here instead ({@link UploadCrc}: PutObject,
 * UploadPart, and CompleteMultipartUpload from the parts' CRCs), with ossgw's {@link io.ossgw.core.util.Crc64}
 * computed while the body is read from the spool, at a third of the SDK's CPU; ranged GETs cannot be checked against
 * the whole object's CRC anyway (reference/oss-api.md §5). The SDK's own retries are off; {@link
 * io.ossgw.core.store.RetryingObjectStore} retries with backoff (a CRC mismatch is transient, so the body is sent
 * again).
 */
public final class AliyunObjectStore implements ObjectStore {
  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[64 * 1024]);

  private final String bucket;
  private final EngineConfig config;
  private final boolean contentMd5;
  private volatile OSS client;
  private volatile OSS readClient;
  private boolean closed;

  /**
   * Keeps the configuration (endpoint, region, V1/V4, timeouts, credentials); each SDK client is built on its first
   * use. Behind the lean path (LeanDataStore) a mount that only lists and reads never builds one, and start-up does
   * not pay for aliyun-sdk-oss's and HttpClient's classes (issue 14).
   */
  public AliyunObjectStore(EngineConfig config) {
    this.bucket = config.bucket();
    this.config = config;
    this.contentMd5 = config.contentMd5();
  }

  /** How many of the two SDK clients have been built so far (tests: the lean path needs none to list and read). */
  public synchronized int clientsBuilt() {
    return (client != null ? 1 : 0) + (readClient != null ? 1 : 0);
  }

  private OSS client() {
    OSS c = client;
    return c != null ? c : build(false);
  }

  private OSS readClient() {
    OSS c = readClient;
    return c != null ? c : build(true);
  }

  private synchronized OSS build(boolean read) {
    if (closed) {
      throw new StoreException(StoreErrorKind.OTHER, "StoreClosed", "the object store is closed");
    }
    OSS c = read ? readClient : client;
    if (c == null) {
      c = OssClients.build(config, false);
      if (read) {
        readClient = c;
      } else {
        client = c;
      }
    }
    return c;
  }

  private StoreException map(RuntimeException e, String what) {
    return OssErrors.map(e, what, config.endpoint());
  }

  @Override
  public String bucket() {
    return bucket;
  }

  @Override
  public ObjectInfo headObject(String key) {
    try {
      ObjectMetadata md = client().getObjectMetadata(bucket, key);
      return toInfo(key, md, md.getContentLength());
    } catch (RuntimeException e) {
      throw map(e, "HeadObject " + key);
    }
  }

  @Override
  public RangeRead getObjectRange(String key, long offset, ByteBuffer dst, String ifMatch) {
    int want = dst.remaining();
    if (want == 0) {
      return new RangeRead(0, null, -1);
    }
    GetObjectRequest req = new GetObjectRequest(bucket, key);
    req.setRange(offset, offset + want - 1);
    req.addHeader("x-oss-range-behavior", "standard");
    if (ifMatch != null) {
      req.setMatchingETagConstraints(List.of('"' + ifMatch + '"'));
    }
    try (OSSObject obj = readClient().getObject(req)) {
      ObjectMetadata md = obj.getObjectMetadata();
      Object range = md.getRawMetadata().get("Content-Range");
      long total = parseTotal(range);
      if (range == null || total < 0 || !String.valueOf(range).startsWith("bytes " + offset + "-")) {
        throw new StoreException(StoreErrorKind.OTHER, "RangeIgnored", 0, obj.getRequestId(),
            "GetObject " + key + ": expected 206 for bytes " + offset + "+" + want + ", got Content-Range " + range, null);
      }
      int n = readFully(body(obj), dst, want);
      // a ranged reply's Content-Length is the range's: the object's size is the Content-Range total
      ObjectInfo info = toInfo(key, md, total);
      return new RangeRead(n, info.etag(), total, info);
    } catch (StoreException e) {
      throw e;
    } catch (IOException e) {
      throw new StoreException(StoreErrorKind.TRANSIENT, "ReadError", 0, null, "GetObject " + key + ": " + e, e);
    } catch (RuntimeException e) {
      StoreException se = map(e, "GetObject " + key);
      if ("InvalidRange".equals(se.code())) {
        return new RangeRead(0, null, -1); // start at or past the end: nothing to read
      }
      throw se;
    }
  }

  /**
   * The response body without the SDK's CRC-64 wrapper: aliyun-sdk-oss 3.18.5 wraps every GetObject body in a
   * CheckedInputStream(CRC64), even on a client with CRC checks off, and compares it only for whole-object downloads.
   * For ranged reads it is pure CPU: 55-63 % of the read path's samples (docs/benchmarks.md). Closing the OSSObject
   * still closes this stream (the wrapper closes what it wraps).
   */
  private static InputStream body(OSSObject obj) {
    var response = obj.getResponse();
    return response != null && response.getContent() != null ? response.getContent() : obj.getObjectContent();
  }

  private static int readFully(InputStream in, ByteBuffer dst, int want) throws IOException {
    int total = 0;
    if (dst.hasArray()) {
      byte[] a = dst.array();
      int base = dst.arrayOffset() + dst.position();
      while (total < want) {
        int n = in.read(a, base + total, want - total);
        if (n < 0) {
          break;
        }
        total += n;
      }
      dst.position(dst.position() + total);
    } else {
      byte[] buf = SCRATCH.get();
      while (total < want) {
        int n = in.read(buf, 0, Math.min(buf.length, want - total));
        if (n < 0) {
          break;
        }
        dst.put(buf, 0, n);
        total += n;
      }
    }
    if (total < want && in.read() >= 0) {
      throw new IOException("range body longer than requested");
    }
    return total;
  }

  private static long parseTotal(Object contentRange) {
    if (contentRange == null) {
      return -1;
    }
    String s = contentRange.toString();
    int slash = s.lastIndexOf('/');
    try {
      return slash < 0 ? -1 : Long.parseLong(s.substring(slash + 1).strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  @Override
  public ListPage listObjectsV2(String prefix, String delimiter, String token, String startAfter, int maxKeys) {
    ListObjectsV2Request req = new ListObjectsV2Request(bucket);
    req.setPrefix(prefix == null ? "" : prefix);
    if (delimiter != null) {
      req.setDelimiter(delimiter);
    }
    req.setMaxKeys(maxKeys);
    req.setEncodingType("url");
    if (token != null) {
      req.setContinuationToken(token);
    }
    if (startAfter != null) {
      req.setStartAfter(startAfter);
    }
    try {
      ListObjectsV2Result r = client().listObjectsV2(req);
      List<ListedObject> objs = new ArrayList<>(r.getObjectSummaries().size());
      for (OSSObjectSummary s : r.getObjectSummaries()) {
        objs.add(new ListedObject(KeyCodec.decode(s.getKey()), s.getSize(), unquote(s.getETag()),
            s.getLastModified() == null ? null : s.getLastModified().toInstant(), s.getType()));
      }
      List<String> prefixes = new ArrayList<>(r.getCommonPrefixes().size());
      for (String p : r.getCommonPrefixes()) {
        prefixes.add(KeyCodec.decode(p));
      }
      String next = r.isTruncated() ? KeyCodec.decode(r.getNextContinuationToken()) : null;
      return new ListPage(objs, prefixes, next, r.isTruncated());
    } catch (RuntimeException e) {
      throw map(e, "ListObjectsV2 " + prefix);
    }
  }

  @Override
  public WriteResult putObject(String key, ContentSource body, WriteMeta meta) {
    try (UploadCrc.Body in = UploadCrc.open(body)) {
      ObjectMetadata md = toMetadata(meta, body.length());
      if (contentMd5) {
        md.setContentMD5(md5Base64(body));
      }
      PutObjectRequest req = new PutObjectRequest(bucket, key, in, md);
      PutObjectResult r = client().putObject(req);
      UploadCrc.check(in.crc64(), r.getServerCRC(), r.getRequestId(), "PutObject " + key);
      return new WriteResult(unquote(r.getETag()), crc(r.getServerCRC()));
    } catch (IOException e) {
      throw new StoreException(StoreErrorKind.TRANSIENT, "ReadError", 0, null, "PutObject " + key + ": " + e, e);
    } catch (RuntimeException e) {
      throw map(e, "PutObject " + key);
    }
  }

  @Override
  public WriteResult copyObject(String sourceKey, String destinationKey, WriteMeta meta) {
    CopyObjectRequest req = new CopyObjectRequest(bucket, sourceKey, bucket, destinationKey);
    if (meta != null) {
      req.setNewObjectMetadata(toMetadata(meta, -1));
    }
    try {
      CopyObjectResult r = client().copyObject(req);
      return new WriteResult(unquote(r.getETag()), null);
    } catch (RuntimeException e) {
      throw map(e, "CopyObject " + sourceKey + " -> " + destinationKey);
    }
  }

  @Override
  public String initiateMultipartUpload(String key, WriteMeta meta) {
    try {
      return client().initiateMultipartUpload(new InitiateMultipartUploadRequest(bucket, key, toMetadata(meta, -1))).getUploadId();
    } catch (RuntimeException e) {
      throw map(e, "InitiateMultipartUpload " + key);
    }
  }

  @Override
  public PartETag uploadPart(String key, String uploadId, int partNumber, ContentSource body) {
    try (UploadCrc.Body in = UploadCrc.open(body)) {
      UploadPartRequest req = new UploadPartRequest(bucket, key, uploadId, partNumber, in, body.length());
      if (contentMd5) {
        req.setMd5Digest(md5Base64(body));
      }
      var r = client().uploadPart(req);
      Long crc = UploadCrc.check(in.crc64(), r.getServerCRC(), r.getRequestId(), "UploadPart " + key + " #" + partNumber);
      return new PartETag(partNumber, unquote(r.getPartETag().getETag()), body.length(), crc);
    } catch (IOException e) {
      throw new StoreException(StoreErrorKind.TRANSIENT, "ReadError", 0, null, "UploadPart " + key + ": " + e, e);
    } catch (RuntimeException e) {
      throw map(e, "UploadPart " + key + " #" + partNumber);
    }
  }

  @Override
  public PartETag uploadPartCopy(String sourceKey, long sourceOffset, long length, String key, String uploadId, int partNumber) {
    return uploadPartCopy(sourceKey, null, sourceOffset, length, key, uploadId, partNumber);
  }

  @Override
  public PartETag uploadPartCopy(String sourceKey, String sourceEtag, long sourceOffset, long length, String key,
      String uploadId, int partNumber) {
    UploadPartCopyRequest req = new UploadPartCopyRequest(bucket, sourceKey, bucket, key, uploadId);
    if (sourceEtag != null) {
      req.setMatchingETagConstraints(List.of("\"" + sourceEtag + "\""));
    }
    req.setPartNumber(partNumber);
    req.setBeginIndex(sourceOffset);
    req.setPartSize(length);
    try {
      return new PartETag(partNumber, unquote(client().uploadPartCopy(req).getETag()), length);
    } catch (RuntimeException e) {
      throw map(e, "UploadPartCopy " + sourceKey + " -> " + key + " #" + partNumber);
    }
  }

  @Override
  public WriteResult completeMultipartUpload(String key, String uploadId, List<PartETag> parts) {
    List<com.aliyun.oss.model.PartETag> sdkParts = new ArrayList<>(parts.size());
    for (PartETag p : parts) {
      sdkParts.add(new com.aliyun.oss.model.PartETag(p.partNumber(), p.etag(), p.size(), null));
    }
    try {
      CompleteMultipartUploadResult r = client().completeMultipartUpload(
          new CompleteMultipartUploadRequest(bucket, key, uploadId, sdkParts));
      UploadCrc.check(UploadCrc.combine(parts), r.getServerCRC(), r.getRequestId(), "CompleteMultipartUpload " + key);
      return new WriteResult(unquote(r.getETag()), crc(r.getServerCRC()));
    } catch (RuntimeException e) {
      throw map(e, "CompleteMultipartUpload " + key);
    }
  }

  @Override
  public void abortMultipartUpload(String key, String uploadId) {
    try {
      client().abortMultipartUpload(new AbortMultipartUploadRequest(bucket, key, uploadId));
    } catch (RuntimeException e) {
      StoreException se = map(e, "AbortMultipartUpload " + key);
      if (se.kind() != StoreErrorKind.NO_SUCH_UPLOAD) {
        throw se;
      }
    }
  }

  @Override
  public UploadListing listMultipartUploads(String prefix, String keyMarker, String uploadIdMarker, int maxUploads) {
    try {
      ListMultipartUploadsRequest req = new ListMultipartUploadsRequest(bucket);
      req.setPrefix(prefix);
      req.setKeyMarker(keyMarker);
      req.setUploadIdMarker(uploadIdMarker);
      req.setMaxUploads(maxUploads);
      MultipartUploadListing l = client().listMultipartUploads(req);
      List<UploadListing.Upload> out = new ArrayList<>();
      for (MultipartUpload u : l.getMultipartUploads()) {
        out.add(new UploadListing.Upload(u.getKey(), u.getUploadId(),
            u.getInitiated() == null ? null : u.getInitiated().toInstant()));
      }
      return new UploadListing(out, l.getNextKeyMarker(), l.getNextUploadIdMarker(), l.isTruncated());
    } catch (RuntimeException e) {
      throw map(e, "ListMultipartUploads " + prefix);
    }
  }

  @Override
  public AppendResult appendObject(String key, long position, ContentSource body, WriteMeta meta) {
    try (InputStream in = body.openStream()) {
      AppendObjectRequest req = new AppendObjectRequest(bucket, key, in, toMetadata(meta, body.length()));
      req.setPosition(position);
      AppendObjectResult r = client().appendObject(req);
      return new AppendResult(r.getNextPosition(), crc(r.getServerCRC()), responseEtag(r));
    } catch (IOException e) {
      throw new StoreException(StoreErrorKind.TRANSIENT, "ReadError", 0, null, "AppendObject " + key + ": " + e, e);
    } catch (RuntimeException e) {
      throw map(e, "AppendObject " + key + " at " + position);
    }
  }

  /** The ETag header of a reply the SDK does not parse it from (AppendObject), or null. */
  private static String responseEtag(com.aliyun.oss.model.GenericResult r) {
    if (r.getResponse() == null || r.getResponse().getHeaders() == null) {
      return null;
    }
    for (Map.Entry<String, String> h : r.getResponse().getHeaders().entrySet()) {
      if ("ETag".equalsIgnoreCase(h.getKey())) {
        return unquote(h.getValue());
      }
    }
    return null;
  }

  @Override
  public void deleteObject(String key) {
    try {
      client().deleteObject(bucket, key);
    } catch (RuntimeException e) {
      StoreException se = map(e, "DeleteObject " + key);
      if (se.kind() != StoreErrorKind.NOT_FOUND) {
        throw se;
      }
    }
  }

  @Override
  public List<String> deleteObjects(List<String> keys) {
    if (keys.isEmpty()) {
      return List.of();
    }
    DeleteObjectsRequest req = new DeleteObjectsRequest(bucket).withKeys(new ArrayList<>(keys)).withQuiet(false);
    req.setEncodingType("url");
    try {
      DeleteObjectsResult r = client().deleteObjects(req);
      Set<String> deleted = new HashSet<>();
      for (String k : r.getDeletedObjects()) {
        deleted.add(KeyCodec.decode(k));
      }
      List<String> failed = new ArrayList<>();
      for (String k : keys) {
        if (!deleted.contains(k)) {
          failed.add(k);
        }
      }
      return failed;
    } catch (RuntimeException e) {
      throw map(e, "DeleteMultipleObjects (" + keys.size() + " keys)");
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (client != null) {
      client.shutdown();
    }
    if (readClient != null) {
      readClient.shutdown();
    }
  }

  /** Content-MD5 for {@code enable_content_md5}: one extra pass over the body. */
  private static String md5Base64(ContentSource body) throws IOException {
    try (InputStream in = body.openStream()) {
      java.security.MessageDigest md5 = java.security.MessageDigest.getInstance("MD5");
      byte[] buf = SCRATCH.get();
      for (int n; (n = in.read(buf)) > 0; ) {
        md5.update(buf, 0, n);
      }
      return java.util.Base64.getEncoder().encodeToString(md5.digest());
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private ObjectMetadata toMetadata(WriteMeta meta, long length) {
    ObjectMetadata md = new ObjectMetadata();
    if (length >= 0) {
      md.setContentLength(length);
    }
    md.setContentType(meta.contentType());
    meta.userMeta().forEach(md::addUserMetadata);
    return md;
  }

  private static ObjectInfo toInfo(String key, ObjectMetadata md, long size) {
    Object next = md.getRawMetadata().get("x-oss-next-append-position");
    return new ObjectInfo(key, size, unquote(md.getETag()),
        md.getLastModified() == null ? null : md.getLastModified().toInstant(), md.getObjectType(), md.getContentType(),
        lower(md.getUserMetadata()), next == null ? -1 : Long.parseLong(next.toString()));
  }

  private static java.util.Map<String, String> lower(java.util.Map<String, String> m) {
    java.util.Map<String, String> out = new java.util.HashMap<>();
    m.forEach((k, v) -> out.put(k.toLowerCase(java.util.Locale.ROOT), v));
    return out;
  }

  private static String crc(Long v) {
    return v == null ? null : Long.toUnsignedString(v);
  }

  /** ETags are kept without the quotes OSS sends them with. */
  static String unquote(String etag) {
    if (etag == null) {
      return null;
    }
    String e = etag.strip();
    return e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"") ? e.substring(1, e.length() - 1) : e;
  }
}
