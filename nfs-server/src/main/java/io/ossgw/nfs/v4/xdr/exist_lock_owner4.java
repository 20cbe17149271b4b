package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.10.1 exist_lock_owner4: a later LOCK of a lock owner on a file, through its lock stateid; the seqid is
 * ignored in minor version 1.
 */
public record exist_lock_owner4(stateid4 lockStateid, int lockSeqid) implements XdrType {
  public static exist_lock_owner4 decode(XdrReader r) {
    return new exist_lock_owner4(stateid4.decode(r), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    lockStateid.encode(w);
    w.int32(lockSeqid);
  }
}
