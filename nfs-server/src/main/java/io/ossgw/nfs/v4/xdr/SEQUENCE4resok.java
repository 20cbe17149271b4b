package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.46.2 SEQUENCE4resok. {@code statusFlags} are SEQ4_STATUS_* bits. */
public record SEQUENCE4resok(sessionid4 sessionid, int sequenceid, int slotid, int highestSlotid,
    int targetHighestSlotid, int statusFlags) implements XdrType {
  public static SEQUENCE4resok decode(XdrReader r) {
    return new SEQUENCE4resok(sessionid4.decode(r), r.int32(), r.int32(), r.int32(), r.int32(), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    sessionid.encode(w);
    w.int32(sequenceid).int32(slotid).int32(highestSlotid).int32(targetHighestSlotid).int32(statusFlags);
  }
}
