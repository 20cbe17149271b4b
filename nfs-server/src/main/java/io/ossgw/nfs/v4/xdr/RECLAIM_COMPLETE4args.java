package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.51.1 RECLAIM_COMPLETE4args: {@code oneFs} true means "for the current file system only". */
public record RECLAIM_COMPLETE4args(boolean oneFs) implements XdrType {
  public static RECLAIM_COMPLETE4args decode(XdrReader r) {
    return new RECLAIM_COMPLETE4args(r.bool());
  }

  @Override
  public void encode(XdrWriter w) {
    w.bool(oneFs);
  }
}
