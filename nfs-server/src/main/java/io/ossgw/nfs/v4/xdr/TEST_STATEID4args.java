package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;
import java.util.ArrayList;
import java.util.List;

/** RFC 8881 §18.48.1 TEST_STATEID4args: at most {@link #MAX} stateids (the Linux client sends one at a time). */
public record TEST_STATEID4args(List<stateid4> stateids) implements XdrType {
  /** Bound on the stateids of one call (a reply of 4 bytes each fits any response size). */
  public static final int MAX = 1024;

  public static TEST_STATEID4args decode(XdrReader r) {
    int n = Xdr4.count(r, MAX);
    List<stateid4> ids = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ids.add(stateid4.decode(r));
    }
    return new TEST_STATEID4args(ids);
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(stateids.size());
    stateids.forEach(s -> s.encode(w));
  }
}
