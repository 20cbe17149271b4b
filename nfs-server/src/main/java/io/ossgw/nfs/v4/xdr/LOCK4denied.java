package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.10.2 LOCK4denied: a lock that conflicts with a LOCK or LOCKT, the body of their NFS4ERR_DENIED result.
 *
 * @param length all ones for a lock to the end of the file
 * @param locktype READ_LT or WRITE_LT
 * @param owner the holder (for a holder that is not an NFSv4 client, a made-up owner naming it: see LockState)
 */
public record LOCK4denied(long offset, long length, int locktype, lock_owner4 owner) implements XdrType {
  public static LOCK4denied decode(XdrReader r) {
    return new LOCK4denied(r.int64(), r.int64(), r.enumValue(Nfs4.READ_LT, Nfs4.WRITEW_LT), lock_owner4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(offset).int64(length).int32(locktype);
    owner.encode(w);
  }
}
