package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.3.1 COMMIT4args: a range (ignored here: OSS objects are written whole). */
public record COMMIT4args(long offset, int count) implements XdrType {
  public static COMMIT4args decode(XdrReader r) {
    return new COMMIT4args(r.int64(), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(offset).int32(count);
  }
}
