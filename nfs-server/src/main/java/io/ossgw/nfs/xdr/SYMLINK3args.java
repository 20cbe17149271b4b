package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.10 SYMLINK3args (symlinkdata3 flattened).
 *
 * @param symlinkAttributes the link's attributes
 * @param symlinkData nfspath3: the target
 */
public record SYMLINK3args(diropargs3 where, sattr3 symlinkAttributes, String symlinkData) implements XdrType {
  public static SYMLINK3args decode(XdrReader r) {
    return new SYMLINK3args(diropargs3.decode(r), sattr3.decode(r), r.string(Nfs3.MAX_PATH));
  }

  @Override
  public void encode(XdrWriter w) {
    where.encode(w);
    symlinkAttributes.encode(w);
    w.string(symlinkData);
  }
}
