package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §3.3.10 change_info4: a directory's change attribute before and after an operation that changed it.
 * {@code atomic} false tells the client the two values were not taken atomically with the change (another change may
 * lie between them), so it must not trust its cache to be current from them alone.
 */
public record change_info4(boolean atomic, long before, long after) implements XdrType {
  public static change_info4 decode(XdrReader r) {
    return new change_info4(r.bool(), r.int64(), r.int64());
  }

  @Override
  public void encode(XdrWriter w) {
    w.bool(atomic).int64(before).int64(after);
  }
}
