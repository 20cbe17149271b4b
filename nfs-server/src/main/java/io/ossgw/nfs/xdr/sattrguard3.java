package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.2 sattrguard3: {@code union switch (bool check) { case TRUE: nfstime3 obj_ctime; case FALSE: void }}.
 * Held as a nullable {@link nfstime3}.
 */
public final class sattrguard3 {
  private sattrguard3() {}

  public static nfstime3 decode(XdrReader r) {
    return r.optional(nfstime3::decode);
  }

  public static void encode(XdrWriter w, nfstime3 objCtime) {
    w.optional(objCtime);
  }
}
