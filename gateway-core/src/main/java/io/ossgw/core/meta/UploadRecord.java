package io.ossgw.core.meta;

import java.util.Map;

/**
 * The multipart uploads this gateway initiated and has not yet completed or aborted, kept in the mount's metadata store
 * (one per endpoint, bucket and prefix under {@code state_dir}) so that a run after a crash (kill -9, power loss, OOM)
 * can abort the uploads the crashed run left behind: incomplete uploads are billed as storage until aborted.
 *
 * <p>Writes are durable at return (the store commits), because the entries matter exactly when the process dies.
 * Implementations are thread-safe.
 */
public interface UploadRecord {

  /** Records an upload just initiated. */
  void started(String key, String uploadId);

  /** Forgets an upload that was completed or aborted (or that OSS no longer knows). */
  void finished(String uploadId);

  /** The uploads recorded and not finished: upload id to key. */
  Map<String, String> unfinished();

  /** A record that keeps nothing (no {@code state_dir}, or its store is held by another process). */
  UploadRecord NONE = new UploadRecord() {
    @Override
    public void started(String key, String uploadId) {}

    @Override
    public void finished(String uploadId) {}

    @Override
    public Map<String, String> unfinished() {
      return Map.of();
    }
  };
}
