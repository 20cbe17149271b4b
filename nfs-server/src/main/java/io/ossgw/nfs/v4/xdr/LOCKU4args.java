package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.12.1 LOCKU4args; {@code seqid} is ignored in minor version 1. */
public record LOCKU4args(int locktype, int seqid, stateid4 lockStateid, long offset, long length) implements XdrType {
  public static LOCKU4args decode(XdrReader r) {
    return new LOCKU4args(r.enumValue(Nfs4.READ_LT, Nfs4.WRITEW_LT), r.int32(), stateid4.decode(r), r.int64(),
        r.int64());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(locktype).int32(seqid);
    lockStateid.encode(w);
    w.int64(offset).int64(length);
  }
}
