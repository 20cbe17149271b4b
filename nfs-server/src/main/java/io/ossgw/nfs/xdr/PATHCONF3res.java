package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.20 PATHCONF3res. PATHCONF3resok: obj_attributes, linkmax, name_max, no_trunc, chown_restricted,
 * case_insensitive, case_preserving; PATHCONF3resfail: obj_attributes.
 */
public record PATHCONF3res(int status, fattr3 objAttributes, int linkmax, int nameMax, boolean noTrunc,
    boolean chownRestricted, boolean caseInsensitive, boolean casePreserving) implements XdrType {

  public static PATHCONF3res fail(int status, fattr3 objAttributes) {
    return new PATHCONF3res(status, objAttributes, 0, 0, false, false, false, false);
  }

  public static PATHCONF3res decode(XdrReader r) {
    int status = r.int32();
    fattr3 a = post_op_attr.decode(r);
    if (status != nfsstat3.NFS3_OK) {
      return fail(status, a);
    }
    return new PATHCONF3res(status, a, r.int32(), r.int32(), r.bool(), r.bool(), r.bool(), r.bool());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    post_op_attr.encode(w, objAttributes);
    if (status == nfsstat3.NFS3_OK) {
      w.int32(linkmax).int32(nameMax).bool(noTrunc).bool(chownRestricted).bool(caseInsensitive).bool(casePreserving);
    }
  }
}
