package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.23.1 READDIR4args.
 *
 * @param cookie where to continue: 0 for the start, else a cookie of an earlier reply (nfs_cookie4, unsigned)
 * @param cookieverf the verifier4 of the reply that cookie came from (8 bytes held as a long), 0 with cookie 0
 * @param dircount a hint: bytes of names and cookies wanted (unsigned; 0 means no hint)
 * @param maxcount the most bytes of READDIR4resok the client takes (unsigned)
 * @param attrRequest the attributes wanted for each entry
 */
public record READDIR4args(long cookie, long cookieverf, int dircount, int maxcount, bitmap4 attrRequest)
    implements XdrType {
  public static READDIR4args decode(XdrReader r) {
    return new READDIR4args(r.int64(), r.int64(), r.int32(), r.int32(), bitmap4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(cookie).int64(cookieverf).int32(dircount).int32(maxcount);
    attrRequest.encode(w);
  }
}
