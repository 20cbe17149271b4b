package io.ossgw.nfs.xdr;

/** RFC 1813 §2.6 wcc_attr: the attributes weak cache consistency compares (size, mtime, ctime). */
public record wcc_attr(long size, nfstime3 mtime, nfstime3 ctime) implements XdrType {
  public static wcc_attr decode(XdrReader r) {
    return new wcc_attr(r.int64(), nfstime3.decode(r), nfstime3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(size);
    mtime.encode(w);
    ctime.encode(w);
  }
}
