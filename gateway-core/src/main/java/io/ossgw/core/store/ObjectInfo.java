package io.ossgw.core.store;

import java.time.Instant;
import java.util.Map;

/**
 * What HeadObject tells about one object.
 *
 * @param key the object key
 * @param size Content-Length in bytes
 * @param etag the ETag without the quotes OSS sends (e.g. {@code 5EB63BBBE01EEED093CB22BB8F5ACDC3})
 * @param lastModified Last-Modified (second precision)
 * @param objectType {@code Normal}, {@code Multipart} or {@code Appendable}
 * @param contentType Content-Type, or null
 * @param userMeta user metadata without the {@code x-oss-meta-} prefix, names lower-case (e.g. {@code mode -> 33188})
 * @param nextAppendPosition {@code x-oss-next-append-position} for Appendable objects, else -1
 */
public record ObjectInfo(
    String key,
    long size,
    String etag,
    Instant lastModified,
    String objectType,
    String contentType,
    Map<String, String> userMeta,
    long nextAppendPosition) {

  public ObjectInfo {
    userMeta = userMeta == null ? Map.of() : Map.copyOf(userMeta);
  }

  /** True for objects created by AppendObject. */
  public boolean appendable() {
    return "Appendable".equalsIgnoreCase(objectType);
  }
}
