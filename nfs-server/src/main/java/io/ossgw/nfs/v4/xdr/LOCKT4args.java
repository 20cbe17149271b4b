package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.11.1 LOCKT4args: would a lock of this type and range by this owner be granted? */
public record LOCKT4args(int locktype, long offset, long length, lock_owner4 owner) implements XdrType {
  public static LOCKT4args decode(XdrReader r) {
    return new LOCKT4args(r.enumValue(Nfs4.READ_LT, Nfs4.WRITEW_LT), r.int64(), r.int64(), lock_owner4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(locktype).int64(offset).int64(length);
    owner.encode(w);
  }
}
