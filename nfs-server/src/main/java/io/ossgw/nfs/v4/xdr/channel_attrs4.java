package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.36.1 channel_attrs4: the limits of one channel of a session. Sizes in bytes, counts as unsigned 32-bit
 * values held in ints.
 *
 * @param rdmaIrd ca_rdma_ird&lt;1&gt;, null when absent
 */
public record channel_attrs4(int headerpadsize, int maxrequestsize, int maxresponsesize, int maxresponsesizeCached,
    int maxoperations, int maxrequests, Integer rdmaIrd) implements XdrType {
  public static channel_attrs4 decode(XdrReader r) {
    int pad = r.int32();
    int req = r.int32();
    int resp = r.int32();
    int cached = r.int32();
    int ops = r.int32();
    int reqs = r.int32();
    Integer ird = Xdr4.count(r, 1) == 1 ? r.int32() : null;
    return new channel_attrs4(pad, req, resp, cached, ops, reqs, ird);
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(headerpadsize).int32(maxrequestsize).int32(maxresponsesize).int32(maxresponsesizeCached)
        .int32(maxoperations).int32(maxrequests);
    if (rdmaIrd == null) {
      w.int32(0);
    } else {
      w.int32(1).int32(rdmaIrd);
    }
  }
}
