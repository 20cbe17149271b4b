package io.ossgw.core.cache;

import io.ossgw.core.meta.UploadRecord;
import java.util.Map;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * {@link UploadRecord} as the map {@code multipart-uploads} (upload id to key) of a mount's MVStore file. Each change
 * commits at once instead of waiting for MVStore's background commit (~1 s), so an upload initiated just before a
 * kill -9 is on disk: a commit is one small write of the changed pages, next to the upload's own requests.
 */
final class MvUploadRecord implements UploadRecord {
  private final MVStore store;
  private final MVMap<String, String> map;

  MvUploadRecord(MVStore store) {
    this.store = store;
    this.map = store.openMap("multipart-uploads");
  }

  @Override
  public void started(String key, String uploadId) {
    map.put(uploadId, key);
    store.commit();
  }

  @Override
  public void finished(String uploadId) {
    if (map.remove(uploadId) != null) {
      store.commit();
    }
  }

  @Override
  public Map<String, String> unfinished() {
    return Map.copyOf(map);
  }
}
