package io.ossgw.core.cache;

import io.ossgw.core.meta.UploadRecord;
import io.ossgw.core.store.ListedObject;
import io.ossgw.core.store.ObjectInfo;
import java.time.Instant;

/**
 * A persistent memory of what HEAD (or our own writes) said about objects, so a cold listing can fill full attributes
 * (mode, owner, times) without a HEAD per entry. An entry is only ever used when a fresh ListObjectsV2 entry shows the
 * object unchanged: same ETag, same size and the same Last-Modified within {@link #CLOCK_SLACK_SECONDS}. Metadata-only
 * changes by other tools (CopyObject onto itself) change Last-Modified, so they are noticed unless they happen within
 * that slack of our own write.
 */
public interface MetaStore extends AutoCloseable {

  /** Remembers the HEAD result of {@code info.key()}. */
  void remember(ObjectInfo info);

  /** The remembered HEAD result, if the listing entry shows the object unchanged since. */
  ObjectInfo validated(ListedObject listed);

  /** Forgets a key (deleted or renamed). */
  void forget(String key);

  @Override
  void close();

  /**
   * The record of this mount's unfinished multipart uploads, kept in the same store file (the file's lock makes it one
   * process's record); {@link UploadRecord#NONE} when the store keeps nothing.
   */
  default UploadRecord uploads() {
    return UploadRecord.NONE;
  }

  /** How far Last-Modified may differ: our own writes are remembered with the local clock, not the server's. */
  long CLOCK_SLACK_SECONDS = 2;

  /** True when {@code info} still describes the object {@code listed} shows. */
  static boolean matches(ObjectInfo info, ListedObject listed) {
    return info.etag() != null && info.etag().equalsIgnoreCase(listed.etag()) && info.size() == listed.size()
        && close(info.lastModified(), listed.lastModified());
  }

  private static boolean close(Instant a, Instant b) {
    return a != null && b != null && Math.abs(a.getEpochSecond() - b.getEpochSecond()) <= CLOCK_SLACK_SECONDS;
  }

  /** A store that remembers nothing. */
  MetaStore NONE = new MetaStore() {
    @Override
    public void remember(ObjectInfo info) {}

    @Override
    public ObjectInfo validated(ListedObject listed) {
      return null;
    }

    @Override
    public void forget(String key) {}

    @Override
    public void close() {}
  };
}
