package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.2 SETATTR3args.
 *
 * @param guard sattrguard3: the ctime the object must still have, or null for no check
 */
public record SETATTR3args(nfs_fh3 object, sattr3 newAttributes, nfstime3 guard) implements XdrType {
  public static SETATTR3args decode(XdrReader r) {
    return new SETATTR3args(nfs_fh3.decode(r), sattr3.decode(r), sattrguard3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    object.encode(w);
    newAttributes.encode(w);
    sattrguard3.encode(w, guard);
  }
}
