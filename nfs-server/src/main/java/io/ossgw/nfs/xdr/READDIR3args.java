package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.16 READDIR3args.
 *
 * @param cookie 0 to start, else the cookie of the last entry received
 * @param cookieverf cookieverf3 (8 bytes as a long): 0 to start, else the verifier the server returned
 * @param count the most bytes of READDIR3resok the client accepts
 */
public record READDIR3args(nfs_fh3 dir, long cookie, long cookieverf, int count) implements XdrType {
  public static READDIR3args decode(XdrReader r) {
    return new READDIR3args(nfs_fh3.decode(r), r.int64(), r.int64(), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    dir.encode(w);
    w.int64(cookie).int64(cookieverf).int32(count);
  }
}
