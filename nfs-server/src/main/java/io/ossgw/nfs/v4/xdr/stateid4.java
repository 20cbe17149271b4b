package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §3.3.12 stateid4: a 32-bit seqid and 12 opaque bytes ("other") naming the state, held here as an int and
 * a long so that {@code other} is a value (map key). The server lays out {@code other} as {@code otherHi} (the
 * client id's low 32 bits) and {@code otherLo} (a per-server counter); see {@code v4.state}.
 *
 * <p>Special stateids (RFC 8881 §8.2.3): all-zero is the anonymous stateid, all-ones the READ-bypass stateid, and
 * seqid 1 with other zero is the current stateid of the compound.
 */
public record stateid4(int seqid, int otherHi, long otherLo) implements XdrType {
  /** The anonymous stateid (seqid 0, other all zero). */
  public static final stateid4 ANONYMOUS = new stateid4(0, 0, 0);
  /** The READ-bypass stateid (seqid and other all ones). */
  public static final stateid4 BYPASS = new stateid4(-1, -1, -1);
  /** The "current stateid" (seqid 1, other zero): the stateid the previous operation of the compound produced. */
  public static final stateid4 CURRENT = new stateid4(1, 0, 0);
  /** The "invalid stateid" (seqid NFS4_UINT32_MAX, other zero). */
  public static final stateid4 INVALID = new stateid4(-1, 0, 0);

  public static stateid4 decode(XdrReader r) {
    int seqid = r.int32();
    int hi = r.int32();
    return new stateid4(seqid, hi, r.int64());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(seqid).int32(otherHi).int64(otherLo);
  }

  /** Whether {@code other} is all zero (anonymous, current or invalid stateid). */
  public boolean otherZero() {
    return otherHi == 0 && otherLo == 0;
  }

  /** The same state with another seqid. */
  public stateid4 withSeqid(int s) {
    return new stateid4(s, otherHi, otherLo);
  }

  /** Whether both name the same state, whatever their seqids. */
  public boolean sameOther(stateid4 o) {
    return otherHi == o.otherHi && otherLo == o.otherLo;
  }

  @Override
  public String toString() {
    return String.format("%d:%08x%016x", seqid, otherHi, otherLo);
  }
}
