package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.2.1 CLOSE4args; the result (CLOSE4res) is a {@link stateid4}, the invalid special stateid in 4.1
 * (§18.2.4).
 *
 * @param seqid ignored in 4.1
 */
public record CLOSE4args(int seqid, stateid4 openStateid) implements XdrType {
  public static CLOSE4args decode(XdrReader r) {
    return new CLOSE4args(r.int32(), stateid4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(seqid);
    openStateid.encode(w);
  }
}
