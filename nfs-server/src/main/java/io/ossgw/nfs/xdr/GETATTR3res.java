package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.1 GETATTR3res: NFS3_OK carries GETATTR3resok (obj_attributes); other statuses carry nothing.
 *
 * @param objAttributes the attributes (NFS3_OK only)
 */
public record GETATTR3res(int status, fattr3 objAttributes) implements XdrType {
  public static GETATTR3res fail(int status) {
    return new GETATTR3res(status, null);
  }

  public static GETATTR3res decode(XdrReader r) {
    int status = r.int32();
    return new GETATTR3res(status, status == nfsstat3.NFS3_OK ? fattr3.decode(r) : null);
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    if (status == nfsstat3.NFS3_OK) {
      objAttributes.encode(w);
    }
  }
}
