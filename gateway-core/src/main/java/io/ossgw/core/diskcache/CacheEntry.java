package io.ossgw.core.diskcache;

import io.ossgw.core.write.RangeSet;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * One object in the {@link DiskCache}: its data file, the version (ETag, size) the cached bytes belong to, which byte
 * ranges are on disk, and a last-use stamp for LRU eviction. Stored in the index as a small versioned binary record.
 * Mutated only under the cache's write lock ({@link #lastUse} also under its read lock, hence volatile).
 */
final class CacheEntry {
  private static final int VERSION = 1;

  final String key;
  final String file;
  String etag;
  long objectSize;
  final RangeSet present = new RangeSet();
  volatile long lastUse;

  CacheEntry(String key, String file) {
    this.key = key;
    this.file = file;
  }

  /** The index record: version, file name, ETag, object size, last use, then the ranges as (start, end) pairs. */
  byte[] encode() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeByte(VERSION);
      out.writeUTF(file);
      out.writeUTF(etag);
      out.writeLong(objectSize);
      out.writeLong(lastUse);
      List<long[]> ranges = present.ranges();
      out.writeInt(ranges.size());
      for (long[] r : ranges) {
        out.writeLong(r[0]);
        out.writeLong(r[1]);
      }
      out.flush();
      return bytes.toByteArray();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  /** The entry of an index record, or null when the record is of another version or damaged. */
  static CacheEntry decode(String key, byte[] b) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
      if (in.readByte() != VERSION) {
        return null;
      }
      CacheEntry e = new CacheEntry(key, in.readUTF());
      e.etag = in.readUTF();
      e.objectSize = in.readLong();
      e.lastUse = in.readLong();
      int n = in.readInt();
      for (int i = 0; i < n; i++) {
        e.present.add(in.readLong(), in.readLong());
      }
      return e;
    } catch (IOException ex) {
      return null;
    }
  }
}
