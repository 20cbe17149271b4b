package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.35.1 nfs_impl_id4: an implementation's name, informative only.
 *
 * @param seconds nii_date seconds since the epoch; {@code nseconds} its nanoseconds
 */
public record nfs_impl_id4(String domain, String name, long seconds, int nseconds) implements XdrType {
  public static nfs_impl_id4 decode(XdrReader r) {
    return new nfs_impl_id4(r.string(Nfs4.NFS4_OPAQUE_LIMIT), r.string(Nfs4.NFS4_OPAQUE_LIMIT), r.int64(), r.int32());
  }

  /** Decodes the {@code nfs_impl_id4<1>} array form: null when empty. */
  public static nfs_impl_id4 decodeOptional(XdrReader r) {
    return Xdr4.count(r, 1) == 1 ? decode(r) : null;
  }

  /** Encodes {@code v} as the {@code nfs_impl_id4<1>} array form. */
  public static void encodeOptional(XdrWriter w, nfs_impl_id4 v) {
    w.int32(v == null ? 0 : 1);
    if (v != null) {
      v.encode(w);
    }
  }

  @Override
  public void encode(XdrWriter w) {
    w.string(domain).string(name).int64(seconds).int32(nseconds);
  }
}
