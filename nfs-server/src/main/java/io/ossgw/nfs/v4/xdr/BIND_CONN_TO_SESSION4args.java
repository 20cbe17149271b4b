package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.34.1 BIND_CONN_TO_SESSION4args; {@code dir} is a channel_dir_from_client4 (CDFC4_*). */
public record BIND_CONN_TO_SESSION4args(sessionid4 sessionid, int dir, boolean useConnInRdmaMode)
    implements XdrType {
  public static BIND_CONN_TO_SESSION4args decode(XdrReader r) {
    return new BIND_CONN_TO_SESSION4args(sessionid4.decode(r), r.int32(), r.bool());
  }

  @Override
  public void encode(XdrWriter w) {
    sessionid.encode(w);
    w.int32(dir).bool(useConnInRdmaMode);
  }
}
