package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.16.2 OPEN4resok. This server grants no delegation, so open_delegation4 is OPEN_DELEGATE_NONE, or
 * OPEN_DELEGATE_NONE_EXT with an open_none_delegation4 reason when the client stated a wish (§18.16.3, §10.4.2).
 * change_info4 (§3.3.6) is written inline: atomic, before, after.
 *
 * @param attrset the attributes set on a created file
 * @param delegation OPEN_DELEGATE_NONE or OPEN_DELEGATE_NONE_EXT
 * @param whyNone with NONE_EXT: a why_no_delegation4 ({@link #WND4_NOT_WANTED}...)
 */
public record OPEN4resok(stateid4 stateid, boolean atomic, long before, long after, int rflags, bitmap4 attrset,
    int delegation, int whyNone) implements XdrType {
  public static final int WND4_NOT_WANTED = 0;
  public static final int WND4_CONTENTION = 1;
  public static final int WND4_RESOURCE = 2;
  public static final int WND4_NOT_SUPP_FTYPE = 3;
  public static final int WND4_WRITE_DELEG_NOT_SUPP_FTYPE = 4;
  public static final int WND4_NOT_SUPP_UPGRADE = 5;
  public static final int WND4_NOT_SUPP_DOWNGRADE = 6;
  public static final int WND4_CANCELLED = 7;
  public static final int WND4_IS_DIR = 8;

  public static OPEN4resok decode(XdrReader r) {
    stateid4 s = stateid4.decode(r);
    boolean atomic = r.bool();
    long before = r.int64();
    long after = r.int64();
    int rflags = r.int32();
    bitmap4 set = bitmap4.decode(r);
    int deleg = r.int32();
    int why = 0;
    if (deleg == Nfs4.OPEN_DELEGATE_NONE_EXT) {
      why = r.int32();
      if (why == WND4_CONTENTION || why == WND4_RESOURCE) {
        r.bool();
      }
    } else if (deleg != Nfs4.OPEN_DELEGATE_NONE) {
      throw new XdrException("this decoder knows no delegation " + deleg);
    }
    return new OPEN4resok(s, atomic, before, after, rflags, set, deleg, why);
  }

  @Override
  public void encode(XdrWriter w) {
    stateid.encode(w);
    w.bool(atomic).int64(before).int64(after).int32(rflags);
    attrset.encode(w);
    w.int32(delegation);
    if (delegation == Nfs4.OPEN_DELEGATE_NONE_EXT) {
      w.int32(whyNone);
      if (whyNone == WND4_CONTENTION || whyNone == WND4_RESOURCE) {
        w.bool(false); // ond_server_will_push_deleg / ond_server_will_signal_avail
      }
    }
  }
}
