package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.18 FSSTAT3res. FSSTAT3resok: obj_attributes, tbytes, fbytes, abytes, tfiles, ffiles, afiles,
 * invarsec; FSSTAT3resfail: obj_attributes. Byte and file counts are unsigned 64-bit.
 */
public record FSSTAT3res(int status, fattr3 objAttributes, long tbytes, long fbytes, long abytes, long tfiles,
    long ffiles, long afiles, int invarsec) implements XdrType {

  public static FSSTAT3res fail(int status, fattr3 objAttributes) {
    return new FSSTAT3res(status, objAttributes, 0, 0, 0, 0, 0, 0, 0);
  }

  public static FSSTAT3res decode(XdrReader r) {
    int status = r.int32();
    fattr3 a = post_op_attr.decode(r);
    if (status != nfsstat3.NFS3_OK) {
      return fail(status, a);
    }
    return new FSSTAT3res(status, a, r.int64(), r.int64(), r.int64(), r.int64(), r.int64(), r.int64(), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    post_op_attr.encode(w, objAttributes);
    if (status == nfsstat3.NFS3_OK) {
      w.int64(tbytes).int64(fbytes).int64(abytes).int64(tfiles).int64(ffiles).int64(afiles).int32(invarsec);
    }
  }
}
