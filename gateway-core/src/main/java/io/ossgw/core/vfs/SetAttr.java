package io.ossgw.core.vfs;

import java.time.Instant;

/**
 * The attributes a setattr changes; null means "leave as is" (RFC 1813 sattr3, FUSE chmod/chown/truncate/utimens).
 *
 * @param mode new permission bits (07777), or null
 * @param uid new owner, or null
 * @param gid new group, or null
 * @param size new size in bytes (truncate or extend with zeros), or null
 * @param atime new access time, or null
 * @param mtime new modification time, or null
 */
public record SetAttr(Integer mode, Integer uid, Integer gid, Long size, Instant atime, Instant mtime) {
  public static SetAttr mode(int mode) {
    return new SetAttr(mode, null, null, null, null, null);
  }

  public static SetAttr owner(Integer uid, Integer gid) {
    return new SetAttr(null, uid, gid, null, null, null);
  }

  public static SetAttr size(long size) {
    return new SetAttr(null, null, null, size, null, null);
  }

  public static SetAttr times(Instant atime, Instant mtime) {
    return new SetAttr(null, null, null, null, atime, mtime);
  }

  /** True when a metadata field (not the size) changes. */
  public boolean changesMeta() {
    return mode != null || uid != null || gid != null || atime != null || mtime != null;
  }
}
