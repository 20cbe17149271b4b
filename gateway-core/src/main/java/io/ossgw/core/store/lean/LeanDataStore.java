package io.ossgw.core.store.lean;

import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.store.AppendResult;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ForwardingObjectStore;
import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.RangeRead;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.UploadListing;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.store.aliyun.UploadCrc;
import io.ossgw.core.store.tls.TlsTrust;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The lean data path (issue 14, docs/benchmarks.md "Lean data path" and "Lean metadata path"): PutObject,
 * UploadPart, ranged GetObject, HeadObject, ListObjectsV2, and (issue 22, "FUSE metadata operations") DeleteObject,
 * DeleteMultipleObjects and CopyObject ({@link LeanKeyOps}), InitiateMultipartUpload, UploadPartCopy,
 * CompleteMultipartUpload, AbortMultipartUpload and ListMultipartUploads ({@link LeanMultipart}, "Twelfth pass") and
 * AppendObject ({@link LeanAppend}) over ossgw's own blocking
 * HTTP/1.1 client ({@link LeanOssClient}) and V4 signer ({@link OssV4Signer}); every other operation, and any
 * request this path cannot carry, goes to the wrapped SDK store unchanged.
 *
 * <p>The wire is the SDK's: the same headers (Content-Type, Content-Length, {@code x-oss-meta-*}, Content-MD5 with
 * {@code enable_content_md5}; {@code Range} with {@code x-oss-range-behavior: standard} and {@code If-Match} on GETs;
 * no storage class or SSE header, as the SDK path sends none), the same addressing and the same error kinds
 * ({@link io.ossgw.core.store.aliyun.OssErrors#kindOf}). Uploads are checked as on the SDK path: the CRC-64 of the
 * bytes sent against {@code x-oss-hash-crc64ecma} ({@link UploadCrc#check}), a mismatch being a transient
 * {@code InconsistentCRC}; a ranged GET must answer 206 with the {@code Content-Range} asked for.
 *
 * <p>Used when {@link #supports} holds: V4 signatures and an {@code http://} or {@code https://} endpoint (TLS through
 * {@link LeanOssClient}; {@code data_path=sdk} turns the path off). Metadata values that are not ASCII travel as the
 * SDK sends them: their UTF-8 bytes in the header, signed over the same UTF-8 ({@link #writeHeaders}); a write whose
 * metadata has a name that is not ASCII, or a control character anywhere, goes through the SDK.
 */
public final class LeanDataStore extends ForwardingObjectStore {
  /** OSS's largest PutObject body and UploadPart part: 5 GiB. */
  public static final long MAX_BODY = 5L << 30;
  private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME;
  /** Largest ListObjectsV2 reply read: 1,000 entries of 1,023-byte keys, percent-encoded (3 bytes a byte), fit. */
  static final int MAX_LIST_BODY = 16 << 20;

  private final LeanOssClient client;
  private final LeanKeyOps keyOps;
  private final LeanMultipart multipart;
  private final LeanAppend append;
  private final boolean contentMd5;
  private volatile CachedDate lastDate = new CachedDate("", null);

  private record CachedDate(String text, Instant instant) {}

  /**
   * @param sdk the store every other operation goes to (and which {@link #close} closes)
   * @param config endpoint, bucket, region, credentials, timeouts, {@code enable_content_md5}
   * @param bodyMode how spool-file bodies are sent
   */
  LeanDataStore(ObjectStore sdk, EngineConfig config, LeanOssClient.BodyMode bodyMode) {
    this(sdk, config, bodyMode, null);
  }

  /** As above, connecting to {@code connectTo} instead of the resolved request host when not null (tests). */
  LeanDataStore(ObjectStore sdk, EngineConfig config, LeanOssClient.BodyMode bodyMode, String connectTo) {
    this(sdk, config, bodyMode, connectTo, null);
  }

  /**
   * As above, trusting {@code trust} on an {@code https://} endpoint ({@link TlsTrust#system()} when null; tests give
   * one with a CA made for the run).
   */
  LeanDataStore(ObjectStore sdk, EngineConfig config, LeanOssClient.BodyMode bodyMode, String connectTo,
      TlsTrust trust) {
    super(sdk);
    var creds = config.credentials();
    this.client = new LeanOssClient(config.endpoint(), config.bucket(),
        new OssV4Signer(creds.accessKeyId(), creds.accessKeySecret(), config.region()), creds.securityToken(), 512,
        (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()), config.readwriteTimeout().toMillis(),
        bodyMode, connectTo, trust);
    this.keyOps = new LeanKeyOps(client, config.bucket());
    this.multipart = new LeanMultipart(client, config.bucket());
    this.append = new LeanAppend(client);
    this.contentMd5 = config.contentMd5();
  }

  /**
   * Whether the lean path can serve {@code config}: V4 signing, an {@code http://} or {@code https://} endpoint, and
   * not turned off.
   */
  public static boolean supports(EngineConfig config) {
    String e = config.endpoint();
    return config.leanDataPath() && config.signatureV4()
        && (e.regionMatches(true, 0, "http://", 0, 7) || e.regionMatches(true, 0, "https://", 0, 8));
  }

  /**
   * {@code sdk} behind the lean data path when {@link #supports} holds, else {@code sdk} itself.
   *
   * @param sdk the SDK store (AliyunObjectStore) for everything else
   */
  public static ObjectStore wrap(ObjectStore sdk, EngineConfig config) {
    return supports(config) ? new LeanDataStore(sdk, config, LeanOssClient.BodyMode.COPY) : sdk;
  }

  /** As {@link #wrap} with a chosen body mode, for measurements (RequestCpuProbe). */
  public static ObjectStore wrap(ObjectStore sdk, EngineConfig config, boolean sendfile) {
    return new LeanDataStore(sdk, config, sendfile ? LeanOssClient.BodyMode.SENDFILE : LeanOssClient.BodyMode.COPY);
  }

  /** Connections opened so far (tests see keep-alive reuse through it); over TLS each one is a handshake. */
  public long connectionsOpened() {
    return client.pool().opened();
  }

  @Override
  public WriteResult putObject(String key, ContentSource body, WriteMeta meta) {
    Map<String, String> h = writeHeaders(meta);
    if (h == null) {
      return delegate.putObject(key, body, meta);
    }
    String what = "PutObject " + key;
    addBodyHeaders(h, body, what);
    return client.exchange("PUT", key, Map.of(), h, body, (c, r, crc) -> {
      String server = r.header("x-oss-hash-crc64ecma");
      UploadCrc.check(OptionalLong.of(crc), server == null ? null : Long.parseUnsignedLong(server),
          r.header("x-oss-request-id"), what);
      c.readBody(r, 64 * 1024);
      return new WriteResult(unquote(r.header("etag")), server);
    }, what);
  }

  /** InitiateMultipartUpload over the lean client; metadata {@link #writeHeaders} cannot carry goes through the SDK. */
  @Override
  public String initiateMultipartUpload(String key, WriteMeta meta) {
    Map<String, String> h = writeHeaders(meta);
    return h == null ? delegate.initiateMultipartUpload(key, meta) : multipart.initiate(key, h);
  }

  /** UploadPartCopy over the lean client (any source ETag). */
  @Override
  public PartETag uploadPartCopy(String sourceKey, long sourceOffset, long length, String key, String uploadId,
      int partNumber) {
    return multipart.uploadPartCopy(sourceKey, null, sourceOffset, length, key, uploadId, partNumber);
  }

  /** UploadPartCopy over the lean client, refused by OSS (PreconditionFailed) when the source's ETag is not this. */
  @Override
  public PartETag uploadPartCopy(String sourceKey, String sourceEtag, long sourceOffset, long length, String key,
      String uploadId, int partNumber) {
    return multipart.uploadPartCopy(sourceKey, sourceEtag, sourceOffset, length, key, uploadId, partNumber);
  }

  /** CompleteMultipartUpload over the lean client, the object's CRC-64 checked against its parts'. */
  @Override
  public WriteResult completeMultipartUpload(String key, String uploadId, List<PartETag> parts) {
    return multipart.complete(key, uploadId, parts);
  }

  /** AbortMultipartUpload over the lean client; an upload already gone is not an error. */
  @Override
  public void abortMultipartUpload(String key, String uploadId) {
    multipart.abort(key, uploadId);
  }

  /** ListMultipartUploads over the lean client ({@link LeanMultipart#list}), keys requested percent-encoded and decoded. */
  @Override
  public UploadListing listMultipartUploads(String prefix, String keyMarker, String uploadIdMarker, int maxUploads) {
    return multipart.list(prefix, keyMarker, uploadIdMarker, maxUploads);
  }

  @Override
  public PartETag uploadPart(String key, String uploadId, int partNumber, ContentSource body) {
    String what = "UploadPart " + key + " #" + partNumber;
    Map<String, String> h = new LinkedHashMap<>();
    addBodyHeaders(h, body, what);
    Map<String, String> q = new LinkedHashMap<>();
    q.put("partNumber", Integer.toString(partNumber));
    q.put("uploadId", uploadId);
    return client.exchange("PUT", key, q, h, body, (c, r, crc) -> {
      String server = r.header("x-oss-hash-crc64ecma");
      Long ours = UploadCrc.check(OptionalLong.of(crc), server == null ? null : Long.parseUnsignedLong(server),
          r.header("x-oss-request-id"), what);
      c.readBody(r, 64 * 1024);
      return new PartETag(partNumber, unquote(r.header("etag")), body.length(), ours);
    }, what);
  }

  /**
   * AppendObject over the lean client ({@link LeanAppend}); metadata {@link #writeHeaders} cannot carry goes through the SDK.
   *
   * @throws StoreException CONFLICT on PositionNotEqualToLength or ObjectNotAppendable, as on the SDK path
   */
  @Override
  public AppendResult appendObject(String key, long position, ContentSource body, WriteMeta meta) {
    Map<String, String> h = writeHeaders(meta);
    if (h == null) {
      return delegate.appendObject(key, position, body, meta);
    }
    String what = "AppendObject " + key;
    addBodyHeaders(h, body, what);
    return append.append(key, position, body, h);
  }

  @Override
  public RangeRead getObjectRange(String key, long offset, ByteBuffer dst, String ifMatch) {
    int want = dst.remaining();
    if (want == 0) {
      return new RangeRead(0, null, -1);
    }
    String what = "GetObject " + key;
    Map<String, String> h = new LinkedHashMap<>();
    h.put("range", "bytes=" + offset + "-" + (offset + want - 1));
    h.put("x-oss-range-behavior", "standard");
    if (ifMatch != null) {
      h.put("if-match", '"' + ifMatch + '"');
    }
    try {
      return client.exchange("GET", key, Map.of(), h, null, (c, r, crc) -> {
        String range = r.header("content-range");
        long total = parseTotal(range);
        if (r.status() != 206 || total < 0 || !range.startsWith("bytes " + offset + "-")) {
          throw new StoreException(StoreErrorKind.OTHER, "RangeIgnored", 0, r.header("x-oss-request-id"),
              what + ": expected 206 for bytes " + offset + "+" + want + ", got " + r.status() + " Content-Range " + range,
              null);
        }
        long len = r.contentLength();
        if (len < 0 || len > want) {
          throw new IOException("range body of " + len + " bytes for " + want + " asked");
        }
        c.readBodyInto(dst, len);
        ObjectInfo info = info(key, r.headers(), total);
        return new RangeRead((int) len, info.etag(), total, info);
      }, what);
    } catch (StoreException e) {
      if ("InvalidRange".equals(e.code())) {
        return new RangeRead(0, null, -1); // start at or past the end: nothing to read
      }
      throw e;
    }
  }

  /**
   * HeadObject over the lean client: the {@link ObjectInfo} the SDK path builds from the same headers (size from
   * Content-Length, ETag, Last-Modified, {@code x-oss-object-type}, Content-Type, {@code x-oss-meta-*},
   * {@code x-oss-next-append-position}). Errors come body-less, from {@code x-oss-err} or the status
   * ({@link LeanOssClient}).
   */
  @Override
  public ObjectInfo headObject(String key) {
    String what = "HeadObject " + key;
    return client.exchange("HEAD", key, Map.of(), Map.of(), null, (c, r, crc) -> {
      long size = r.contentLength();
      if (size < 0) {
        throw new IOException("HEAD reply without Content-Length");
      }
      return info(key, r.headers(), size);
    }, what);
  }

  /**
   * ListObjectsV2 over the lean client with {@code encoding-type=url}, the reply parsed by {@link ListResultParser}
   * into the page the SDK path returns (keys, prefixes and the token decoded).
   */
  @Override
  public ListPage listObjectsV2(String prefix, String delimiter, String token, String startAfter, int maxKeys) {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("list-type", "2");
    if (prefix != null && !prefix.isEmpty()) {
      q.put("prefix", prefix);
    }
    if (delimiter != null) {
      q.put("delimiter", delimiter);
    }
    q.put("max-keys", Integer.toString(maxKeys));
    q.put("encoding-type", "url");
    if (token != null) {
      q.put("continuation-token", token);
    }
    if (startAfter != null) {
      q.put("start-after", startAfter);
    }
    return client.exchange("GET", "", q, Map.of(), null,
        (c, r, crc) -> ListResultParser.parse(c.readBody(r, MAX_LIST_BODY), true), "ListObjectsV2 " + prefix);
  }

  /** DeleteObject over the lean client; a missing key is not an error. */
  @Override
  public void deleteObject(String key) {
    keyOps.deleteObject(key);
  }

  /**
   * DeleteMultipleObjects (quiet) over the lean client, up to 1,000 keys; keys XML cannot carry go one DeleteObject
   * each, and a key whose DeleteObject fails is reported as not deleted.
   */
  @Override
  public List<String> deleteObjects(List<String> keys) {
    if (keys.isEmpty()) {
      return List.of();
    }
    List<String> failed = keyOps.deleteObjects(keys);
    if (failed != null) {
      return failed;
    }
    failed = new ArrayList<>();
    for (String k : keys) {
      try {
        keyOps.deleteObject(k);
      } catch (StoreException e) {
        failed.add(k);
      }
    }
    return failed;
  }

  /** CopyObject over the lean client; metadata that cannot travel as plain headers goes through the SDK. */
  @Override
  public WriteResult copyObject(String sourceKey, String destinationKey, WriteMeta meta) {
    Map<String, String> h = null;
    if (meta != null) {
      h = writeHeaders(meta);
      if (h == null) {
        return delegate.copyObject(sourceKey, destinationKey, meta);
      }
    }
    return keyOps.copyObject(sourceKey, destinationKey, h);
  }

  /**
   * The metadata headers of a write, or null when one cannot travel as a header (the SDK then sends it): names must be
   * printable ASCII (an HTTP token), values and the Content-Type free of control characters. A value that is not ASCII
   * goes as its UTF-8 bytes, as aliyun-sdk-oss sends it (it signs the value, then converts the header to ISO-8859-1
   * from those bytes), and the V4 signature hashes the same UTF-8 ({@link OssV4Signer}); OSS returns those bytes,
   * which {@link HttpConnection} decodes as UTF-8 again.
   */
  private static Map<String, String> writeHeaders(WriteMeta meta) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("content-type", meta.contentType());
    for (Map.Entry<String, String> e : meta.userMeta().entrySet()) {
      if (!ascii(e.getKey()) || !headerValue(e.getValue())) {
        return null;
      }
      h.put("x-oss-meta-" + e.getKey().toLowerCase(java.util.Locale.ROOT), e.getValue());
    }
    return headerValue(meta.contentType()) ? h : null;
  }

  /** Printable ASCII only. */
  private static boolean ascii(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c >= 0x7f) {
        return false;
      }
    }
    return true;
  }

  /** No control character (C0, DEL, C1) and no lone surrogate: what a header value can carry as UTF-8. */
  private static boolean headerValue(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c < 0xa0)) {
        return false;
      }
      if (Character.isSurrogate(c)) {
        if (!Character.isHighSurrogate(c) || i + 1 == s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
          return false;
        }
        i++;
      }
    }
    return true;
  }

  /**
   * Refuses a body over OSS's 5 GiB limit and, with {@code enable_content_md5}, adds its Content-MD5 to {@code h}
   * (PutObject, UploadPart and AppendObject alike).
   *
   * @throws StoreException INVALID_REQUEST (EntityTooLarge) for a body over {@link #MAX_BODY} bytes
   */
  private void addBodyHeaders(Map<String, String> h, ContentSource body, String what) {
    checkLength(body, what);
    if (contentMd5) {
      h.put("content-md5", md5Base64(body, what));
    }
  }

  private static void checkLength(ContentSource body, String what) {
    if (body.length() > MAX_BODY) {
      throw new StoreException(StoreErrorKind.INVALID_REQUEST, "EntityTooLarge", 0, null,
          what + ": body of " + body.length() + " bytes is over OSS's " + MAX_BODY + "-byte limit", null);
    }
  }

  private static String md5Base64(ContentSource body, String what) {
    try (InputStream in = body.openStream()) {
      java.security.MessageDigest md5 = java.security.MessageDigest.getInstance("MD5");
      byte[] buf = new byte[64 * 1024];
      int n;
      while ((n = in.read(buf)) > 0) {
        md5.update(buf, 0, n);
      }
      return Base64.getEncoder().encodeToString(md5.digest());
    } catch (IOException e) {
      throw new StoreException(StoreErrorKind.TRANSIENT, "ReadError", 0, null, what + ": " + e, e);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** HeadObject's view of the object from a GET's headers, as the SDK path builds it. */
  private ObjectInfo info(String key, Map<String, String> h, long size) {
    Map<String, String> meta = new HashMap<>();
    h.forEach((k, v) -> {
      if (k.startsWith("x-oss-meta-")) {
        meta.put(k.substring("x-oss-meta-".length()), v);
      }
    });
    String next = h.get("x-oss-next-append-position");
    return new ObjectInfo(key, size, unquote(h.get("etag")), date(h.get("last-modified")), h.get("x-oss-object-type"),
        h.get("content-type"), meta, next == null ? -1 : Long.parseLong(next.strip()));
  }

  /** Last-Modified as an Instant; the last one parsed is cached (sequential reads of one object repeat it). */
  private Instant date(String text) {
    if (text == null) {
      return null;
    }
    CachedDate d = lastDate;
    if (!d.text().equals(text)) {
      Instant t = rfc1123(text);
      d = new CachedDate(text, t != null ? t : ZonedDateTime.parse(text, HTTP_DATE).toInstant());
      lastDate = d;
    }
    return d.instant();
  }

  private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

  /**
   * {@code Wed, 25 Nov 2026 22:45:51 GMT}, the fixed shape OSS sends, read by hand (a HEAD of each of 3,000 listed
   * objects has 3,000 different dates, so the one-entry cache does not help there); null for any other shape, which
   * the JDK's RFC 1123 formatter then reads.
   */
  static Instant rfc1123(String s) {
    if (s.length() != 29 || s.charAt(3) != ',' || s.charAt(4) != ' ' || s.charAt(7) != ' ' || s.charAt(11) != ' '
        || s.charAt(16) != ' ' || s.charAt(19) != ':' || s.charAt(22) != ':' || s.charAt(25) != ' '
        || !s.endsWith("GMT")) {
      return null;
    }
    int month = MONTHS.indexOf(s.substring(8, 11));
    int day = ListResultParser.digits(s, 5, 2);
    int year = ListResultParser.digits(s, 12, 4);
    int hour = ListResultParser.digits(s, 17, 2);
    int minute = ListResultParser.digits(s, 20, 2);
    int second = ListResultParser.digits(s, 23, 2);
    if (month < 0 || month % 3 != 0 || day < 1 || year < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59
        || second < 0 || second > 59) {
      return null;
    }
    try {
      long epochDay = java.time.LocalDate.of(year, month / 3 + 1, day).toEpochDay();
      return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3600L + minute * 60L + second);
    } catch (java.time.DateTimeException e) {
      return null;
    }
  }

  private static long parseTotal(String contentRange) {
    if (contentRange == null) {
      return -1;
    }
    int slash = contentRange.lastIndexOf('/');
    try {
      return slash < 0 ? -1 : Long.parseLong(contentRange.substring(slash + 1).strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static String unquote(String etag) {
    return LeanKeyOps.unquote(etag);
  }

  @Override
  public void close() {
    try {
      client.close();
    } finally {
      delegate.close();
    }
  }
}
