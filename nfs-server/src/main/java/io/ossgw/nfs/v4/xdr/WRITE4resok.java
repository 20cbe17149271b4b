package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.32.2 WRITE4resok.
 *
 * @param count bytes written
 * @param committed stable_how4 the data reached: UNSTABLE4 (staged) or FILE_SYNC4 (in OSS)
 * @param writeverf the server's write verifier (8 bytes as a long)
 */
public record WRITE4resok(int count, int committed, long writeverf) implements XdrType {
  public static WRITE4resok decode(XdrReader r) {
    return new WRITE4resok(r.int32(), r.int32(), r.int64());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(count).int32(committed).int64(writeverf);
  }
}
