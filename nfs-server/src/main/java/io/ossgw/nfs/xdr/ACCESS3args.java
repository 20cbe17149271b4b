package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.4 ACCESS3args.
 *
 * @param access the ACCESS3_* bits asked about
 */
public record ACCESS3args(nfs_fh3 object, int access) implements XdrType {
  public static ACCESS3args decode(XdrReader r) {
    return new ACCESS3args(nfs_fh3.decode(r), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    object.encode(w);
    w.int32(access);
  }
}
