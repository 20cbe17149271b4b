package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.46.1 SEQUENCE4args. Sequence and slot ids are unsigned 32-bit values held in ints. */
public record SEQUENCE4args(sessionid4 sessionid, int sequenceid, int slotid, int highestSlotid, boolean cachethis)
    implements XdrType {
  public static SEQUENCE4args decode(XdrReader r) {
    return new SEQUENCE4args(sessionid4.decode(r), r.int32(), r.int32(), r.int32(), r.bool());
  }

  @Override
  public void encode(XdrWriter w) {
    sessionid.encode(w);
    w.int32(sequenceid).int32(slotid).int32(highestSlotid).bool(cachethis);
  }
}
