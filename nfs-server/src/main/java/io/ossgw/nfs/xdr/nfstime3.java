package io.ossgw.nfs.xdr;

import java.time.Instant;

/**
 * RFC 1813 §2.5 nfstime3: seconds and nanoseconds since the epoch, both unsigned 32-bit (held as raw int bits).
 *
 * @param seconds unsigned seconds since 1970-01-01T00:00:00Z
 * @param nseconds nanoseconds, below 10^9
 */
public record nfstime3(int seconds, int nseconds) implements XdrType {
  /** The time as an nfstime3; times before 1970 or after 2106 are clamped to the representable range. */
  public static nfstime3 of(Instant t) {
    long s = t.getEpochSecond();
    if (s < 0) {
      return new nfstime3(0, 0);
    }
    if (s > 0xffffffffL) {
      return new nfstime3(-1, 999_999_999);
    }
    return new nfstime3((int) s, t.getNano());
  }

  /** This time as an Instant (nanoseconds over 10^9 carry into the seconds). */
  public Instant toInstant() {
    return Instant.ofEpochSecond(seconds & 0xffffffffL, nseconds & 0xffffffffL);
  }

  public static nfstime3 decode(XdrReader r) {
    return new nfstime3(r.int32(), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(seconds).int32(nseconds);
  }
}
