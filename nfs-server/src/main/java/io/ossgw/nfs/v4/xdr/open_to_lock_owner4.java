package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.10.1 open_to_lock_owner4: the first LOCK of a lock owner on a file, made through an open stateid. The
 * seqids are ignored in minor version 1 (the session gives exactly-once semantics; clients send 0).
 */
public record open_to_lock_owner4(int openSeqid, stateid4 openStateid, int lockSeqid, lock_owner4 lockOwner)
    implements XdrType {
  public static open_to_lock_owner4 decode(XdrReader r) {
    return new open_to_lock_owner4(r.int32(), stateid4.decode(r), r.int32(), lock_owner4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(openSeqid);
    openStateid.encode(w);
    w.int32(lockSeqid);
    lockOwner.encode(w);
  }
}
