package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.48.2 TEST_STATEID4resok: one nfsstat4 per stateid tested, in order. */
public record TEST_STATEID4resok(int[] statusCodes) implements XdrType {
  public static TEST_STATEID4resok decode(XdrReader r) {
    int[] s = new int[Xdr4.count(r, TEST_STATEID4args.MAX)];
    for (int i = 0; i < s.length; i++) {
      s[i] = r.int32();
    }
    return new TEST_STATEID4resok(s);
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(statusCodes.length);
    for (int s : statusCodes) {
      w.int32(s);
    }
  }
}
