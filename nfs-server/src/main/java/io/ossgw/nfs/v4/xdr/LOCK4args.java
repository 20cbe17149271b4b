package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.10.1 LOCK4args with its locker4 union: exactly one of {@code openOwner} (new_lock_owner TRUE) and
 * {@code lockOwner} (FALSE) is set.
 *
 * @param locktype READ_LT, WRITE_LT, READW_LT or WRITEW_LT
 * @param offset first byte (unsigned 64 bits)
 * @param length bytes (unsigned 64 bits); all ones means to the end of the file
 */
public record LOCK4args(int locktype, boolean reclaim, long offset, long length, open_to_lock_owner4 openOwner,
    exist_lock_owner4 lockOwner) implements XdrType {
  public static LOCK4args decode(XdrReader r) {
    int type = r.enumValue(Nfs4.READ_LT, Nfs4.WRITEW_LT);
    boolean reclaim = r.bool();
    long offset = r.int64();
    long length = r.int64();
    if (r.bool()) {
      return new LOCK4args(type, reclaim, offset, length, open_to_lock_owner4.decode(r), null);
    }
    return new LOCK4args(type, reclaim, offset, length, null, exist_lock_owner4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(locktype).bool(reclaim).int64(offset).int64(length).bool(openOwner != null);
    if (openOwner != null) {
      openOwner.encode(w);
    } else {
      lockOwner.encode(w);
    }
  }
}
