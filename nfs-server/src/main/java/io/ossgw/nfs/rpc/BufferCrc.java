package io.ossgw.nfs.rpc;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.memory.ByteBufferArray;

/**
 * CRC-32C over a range of a Grizzly buffer as bulk updates over views of its bytes (no copy, no per-byte call), for
 * the keys of the reply caches (v3's duplicate-request cache, the v4.1 slot cache's retry check).
 */
public final class BufferCrc {
  private BufferCrc() {}

  /**
   * The CRC-32C of bytes [from, to) of {@code b}, absolute indices within its position and limit. The buffer's
   * position and limit are as they were on return (Grizzly's {@code toByteBuffer(from, to)} moves a simple buffer's
   * window to the range, so they are restored).
   */
  public static long of(Buffer b, int from, int to) {
    CRC32C c = new CRC32C();
    if (to <= from) {
      return c.getValue();
    }
    int position = b.position();
    int limit = b.limit();
    try {
      if (!b.isComposite()) {
        c.update(b.toByteBuffer(from, to).slice());
      } else {
        ByteBufferArray parts = b.toByteBufferArray(from, to);
        try {
          ByteBuffer[] a = parts.getArray();
          for (int i = 0; i < parts.size(); i++) {
            c.update(a[i].slice());
          }
        } finally {
          parts.restore();
          parts.recycle();
        }
      }
    } finally {
      b.limit(limit);
      b.position(position);
    }
    return c.getValue();
  }
}
