package io.ossgw.core.meta;

import io.ossgw.core.vfs.FileAttr;
import java.time.Instant;
import java.util.Map;

/**
 * A resolved path: its attributes and where they came from. Cached by the engine's metadata cache.
 *
 * @param attr the attributes (with the ETag they came from)
 * @param origin which object the attributes come from
 * @param objectKey the key holding the metadata (file key or marker key), or null for implicit dirs and the root
 * @param objectType Normal, Multipart or Appendable, or null when unknown
 * @param contentType the object's Content-Type, or null
 * @param userMeta the object's user metadata as last read by HEAD (lower-case names without {@code x-oss-meta-}), or
 *     null when only a listing was seen (then mode/uid/gid/times may be defaults)
 * @param symlinkTarget the target when known (symlinks), else null
 * @param lastModified the object's Last-Modified, or null
 * @param nextAppendPosition for Appendable objects, else -1
 */
public record Node(
    FileAttr attr,
    Origin origin,
    String objectKey,
    String objectType,
    String contentType,
    Map<String, String> userMeta,
    String symlinkTarget,
    Instant lastModified,
    long nextAppendPosition) {

  /** True when the user metadata is known (from HEAD, our own write or the metadata store). */
  public boolean metaKnown() {
    return origin != Origin.PREFIX
        && (userMeta != null || origin == Origin.IMPLICIT_DIR || origin == Origin.ROOT || origin == Origin.PENDING);
  }

  public boolean isDirectory() {
    return attr.isDirectory();
  }

  public Node withAttr(FileAttr a) {
    return new Node(a, origin, objectKey, objectType, contentType, userMeta, symlinkTarget, lastModified, nextAppendPosition);
  }
}
