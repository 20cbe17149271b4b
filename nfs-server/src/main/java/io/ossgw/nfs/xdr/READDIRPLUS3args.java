package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.17 READDIRPLUS3args.
 *
 * @param cookieverf cookieverf3 as a long
 * @param dircount the most bytes of directory information (fileid, name, cookie) wanted
 * @param maxcount the most bytes of READDIRPLUS3resok the client accepts
 */
public record READDIRPLUS3args(nfs_fh3 dir, long cookie, long cookieverf, int dircount, int maxcount)
    implements XdrType {
  public static READDIRPLUS3args decode(XdrReader r) {
    return new READDIRPLUS3args(nfs_fh3.decode(r), r.int64(), r.int64(), r.int32(), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    dir.encode(w);
    w.int64(cookie).int64(cookieverf).int32(dircount).int32(maxcount);
  }
}
