package io.ossgw.core.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * AppendObject after an attempt whose outcome is unknown (a reset, a timeout, a 5xx): a blind retry would fail with
 * PositionNotEqualToLength when the lost attempt had been carried out, and the writer would report EIO for bytes that
 * are in OSS. Before each retry one HeadObject tells the cases apart: the object still {@code position} bytes long (or
 * absent, for an append at 0) was not appended to, and the append is sent again; an object {@code position + length}
 * long whose bytes from {@code position} are the body's (one ranged GetObject per MiB, If-Match its ETag) holds this
 * append, which then succeeds without being sent again; any other length is another writer's append, a conflict.
 */
final class LostAppendReplies {
  private static final int CHUNK = 1 << 20;

  private LostAppendReplies() {}

  /**
   * What a lost attempt of appending {@code body} at {@code position} left, read through {@code store}.
   *
   * @return the attempt's result when it was carried out; null when it was not (append again)
   * @throws StoreException CONFLICT when the object's length is neither; errors of the HeadObject or GetObject
   */
  static AppendResult landed(ObjectStore store, String key, long position, ContentSource body) {
    ObjectInfo now;
    try {
      now = store.headObject(key);
    } catch (StoreException e) {
      if (e.kind() == StoreErrorKind.NOT_FOUND && position == 0) {
        return null;
      }
      throw e;
    }
    if (now.size() == position) {
      return null;
    }
    long end = position + body.length();
    if (now.size() != end || !sameBytes(store, key, position, body, now.etag())) {
      throw new StoreException(StoreErrorKind.CONFLICT, "PositionNotEqualToLength",
          "AppendObject " + key + " at " + position + ": the object is " + now.size() + " bytes long after a lost reply");
    }
    return new AppendResult(end, null, now.etag());
  }

  private static boolean sameBytes(ObjectStore store, String key, long position, ContentSource body, String etag) {
    ByteBuffer got = ByteBuffer.allocate((int) Math.min(CHUNK, Math.max(1, body.length())));
    byte[] ours = new byte[got.capacity()];
    try (InputStream in = body.openStream()) {
      for (long off = 0; off < body.length(); ) {
        int n = (int) Math.min(got.capacity(), body.length() - off);
        got.clear().limit(n);
        while (got.hasRemaining()) {
          if (store.getObjectRange(key, position + off + got.position(), got, etag).bytesRead() <= 0) {
            return false;
          }
        }
        if (in.readNBytes(ours, 0, n) != n || !Arrays.equals(ours, 0, n, got.array(), 0, n)) {
          return false;
        }
        off += n;
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
