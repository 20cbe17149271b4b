package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.22.1 READ4args.
 *
 * @param offset offset4 (unsigned; a negative long is past any file)
 * @param count count4 (unsigned)
 */
public record READ4args(stateid4 stateid, long offset, int count) implements XdrType {
  public static READ4args decode(XdrReader r) {
    return new READ4args(stateid4.decode(r), r.int64(), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    stateid.encode(w);
    w.int64(offset).int32(count);
  }
}
