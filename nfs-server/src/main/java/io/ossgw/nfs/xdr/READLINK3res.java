package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.5 READLINK3res. READLINK3resok: symlink_attributes, data; READLINK3resfail: symlink_attributes.
 *
 * @param symlinkAttributes post_op_attr, nullable
 * @param data nfspath3, the link's target (NFS3_OK only)
 */
public record READLINK3res(int status, fattr3 symlinkAttributes, String data) implements XdrType {
  public static READLINK3res fail(int status, fattr3 symlinkAttributes) {
    return new READLINK3res(status, symlinkAttributes, null);
  }

  public static READLINK3res decode(XdrReader r) {
    int status = r.int32();
    fattr3 a = post_op_attr.decode(r);
    return new READLINK3res(status, a, status == nfsstat3.NFS3_OK ? r.string(Nfs3.MAX_PATH) : null);
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    post_op_attr.encode(w, symlinkAttributes);
    if (status == nfsstat3.NFS3_OK) {
      w.string(data);
    }
  }
}
