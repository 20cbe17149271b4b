package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.45.1 SECINFO_NO_NAME4args: secinfo_style4, SECINFO_STYLE4_CURRENT_FH or SECINFO_STYLE4_PARENT. */
public record SECINFO_NO_NAME4args(int style) implements XdrType {
  public static SECINFO_NO_NAME4args decode(XdrReader r) {
    return new SECINFO_NO_NAME4args(r.enumValue(Nfs4.SECINFO_STYLE4_CURRENT_FH, Nfs4.SECINFO_STYLE4_PARENT));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(style);
  }
}
