package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.3.2 COMMIT4resok: the write verifier (8 bytes as a long). */
public record COMMIT4resok(long writeverf) implements XdrType {
  public static COMMIT4resok decode(XdrReader r) {
    return new COMMIT4resok(r.int64());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(writeverf);
  }
}
