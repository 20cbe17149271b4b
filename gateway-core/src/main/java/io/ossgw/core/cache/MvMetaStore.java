package io.ossgw.core.cache;

import io.ossgw.core.memory.MvStores;
import io.ossgw.core.meta.UploadRecord;
import io.ossgw.core.store.ListedObject;
import io.ossgw.core.store.ObjectInfo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * {@link MetaStore} in an H2 MVStore file (one per endpoint, bucket and prefix under the state directory). MVStore
 * commits in the background about once a second; a crash loses at most the last second of entries, which only costs
 * HEADs later, because every entry is validated against a fresh listing before use.
 */
public final class MvMetaStore implements MetaStore {
  private static final System.Logger LOG = System.getLogger(MvMetaStore.class.getName());
  private static final int VERSION = 1;

  private final MVStore store;
  private final MVMap<String, byte[]> map;
  private final UploadRecord uploads;

  private MvMetaStore(MVStore store) {
    this.store = store;
    this.map = store.openMap("object-meta");
    this.uploads = new MvUploadRecord(store);
  }

  /**
   * Opens (or creates) the store file; falls back to {@link MetaStore#NONE} with a warning when the file is locked by
   * another gateway process or unreadable, since the store is only an optimisation.
   */
  public static MetaStore open(Path file) {
    try {
      Files.createDirectories(file.getParent());
      MVStore s = MvStores.open(file, MvStores.cacheMb()); // background commit every ~1 s, and per MB of changes
      return new MvMetaStore(s);
    } catch (RuntimeException | IOException e) {
      LOG.log(System.Logger.Level.WARNING, "metadata store " + file + " unavailable (" + e.getMessage()
          + "); cold listings will HEAD objects whose metadata is unknown");
      return MetaStore.NONE;
    }
  }

  @Override
  public void remember(ObjectInfo info) {
    map.put(info.key(), encode(info));
  }

  @Override
  public ObjectInfo validated(ListedObject listed) {
    byte[] b = map.get(listed.key());
    if (b == null) {
      return null;
    }
    ObjectInfo info = decode(listed.key(), b);
    return info != null && MetaStore.matches(info, listed) ? info : null;
  }

  @Override
  public void forget(String key) {
    map.remove(key);
  }

  @Override
  public UploadRecord uploads() {
    return uploads;
  }

  /**
   * Closes the file without writing what is not yet committed, as a crash would (tests: a "kill -9" inside one JVM,
   * which must also release the file lock for the next engine).
   */
  public void closeImmediately() {
    store.closeImmediately();
  }

  @Override
  public void close() {
    try {
      store.close();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "closing metadata store: " + e.getMessage());
    }
  }

  private static byte[] encode(ObjectInfo i) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeByte(VERSION);
      out.writeLong(i.size());
      out.writeUTF(i.etag() == null ? "" : i.etag());
      out.writeLong(i.lastModified() == null ? Long.MIN_VALUE : i.lastModified().getEpochSecond());
      out.writeUTF(i.objectType() == null ? "" : i.objectType());
      out.writeUTF(i.contentType() == null ? "" : i.contentType());
      out.writeLong(i.nextAppendPosition());
      out.writeInt(i.userMeta().size());
      for (Map.Entry<String, String> e : i.userMeta().entrySet()) {
        out.writeUTF(e.getKey());
        out.writeUTF(e.getValue());
      }
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ObjectInfo decode(String key, byte[] b) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
      if (in.readByte() != VERSION) {
        return null;
      }
      long size = in.readLong();
      String etag = in.readUTF();
      long lm = in.readLong();
      String type = in.readUTF();
      String ct = in.readUTF();
      long next = in.readLong();
      int n = in.readInt();
      Map<String, String> meta = new HashMap<>();
      for (int k = 0; k < n; k++) {
        meta.put(in.readUTF(), in.readUTF());
      }
      return new ObjectInfo(key, size, etag.isEmpty() ? null : etag, lm == Long.MIN_VALUE ? null : Instant.ofEpochSecond(lm),
          type.isEmpty() ? null : type, ct.isEmpty() ? null : ct, meta, next);
    } catch (IOException e) {
      return null;
    }
  }
}
