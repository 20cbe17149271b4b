package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.18.1 OPEN_DOWNGRADE4args; the result (OPEN_DOWNGRADE4resok) is the new {@link stateid4}.
 *
 * @param seqid ignored in 4.1
 */
public record OPEN_DOWNGRADE4args(stateid4 openStateid, int seqid, int shareAccess, int shareDeny)
    implements XdrType {
  public static OPEN_DOWNGRADE4args decode(XdrReader r) {
    return new OPEN_DOWNGRADE4args(stateid4.decode(r), r.int32(), r.int32(), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    openStateid.encode(w);
    w.int32(seqid).int32(shareAccess).int32(shareDeny);
  }
}
