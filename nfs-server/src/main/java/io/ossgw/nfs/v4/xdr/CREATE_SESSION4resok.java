package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.36.2 CREATE_SESSION4resok: the new session and the channel limits the server granted. */
public record CREATE_SESSION4resok(sessionid4 sessionid, int sequence, int flags, channel_attrs4 foreChanAttrs,
    channel_attrs4 backChanAttrs) implements XdrType {
  public static CREATE_SESSION4resok decode(XdrReader r) {
    return new CREATE_SESSION4resok(sessionid4.decode(r), r.int32(), r.int32(), channel_attrs4.decode(r),
        channel_attrs4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    sessionid.encode(w);
    w.int32(sequence).int32(flags);
    foreChanAttrs.encode(w);
    backChanAttrs.encode(w);
  }
}
