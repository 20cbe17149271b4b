package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * RFC 8881 §16.2.2 COMPOUND4res: the status of the last operation run, the request's tag, and one result per
 * operation run (processing stops at the first failure).
 */
public record COMPOUND4res(int status, byte[] tag, List<nfs_resop4> resarray) implements XdrType {
  /** Bound on results decoded by clients and tests. */
  private static final int MAX_RESULTS = 1024;

  public static COMPOUND4res decode(XdrReader r) {
    int status = r.int32();
    byte[] tag = r.opaque(Nfs4.TAG_LIMIT);
    int n = Xdr4.count(r, MAX_RESULTS);
    List<nfs_resop4> res = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      res.add(nfs_resop4.decode(r));
    }
    return new COMPOUND4res(status, tag, res);
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status).opaque(tag).int32(resarray.size());
    for (nfs_resop4 op : resarray) {
      op.encode(w);
    }
  }
}
