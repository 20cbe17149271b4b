package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.29.2 SECINFO4resok (also SECINFO_NO_NAME's): secinfo4&lt;&gt;, the flavors in the server's order of
 * preference. Only flavors without rpcsec_gss_info (AUTH_NONE, AUTH_SYS) are ever sent or decoded here.
 */
public record SECINFO4resok(int[] flavors) implements XdrType {
  public static SECINFO4resok decode(XdrReader r) {
    int n = Xdr4.count(r, Nfs4.ARRAY_LIMIT);
    int[] f = new int[n];
    for (int i = 0; i < n; i++) {
      f[i] = r.int32();
      if (f[i] == Nfs4.RPCSEC_GSS) {
        throw new XdrException("RPCSEC_GSS secinfo not decoded");
      }
    }
    return new SECINFO4resok(f);
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(flavors.length);
    for (int f : flavors) {
      w.int32(f);
    }
  }
}
