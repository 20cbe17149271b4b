package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §3.3.9 specdata4: a device's major ({@code specdata1}) and minor ({@code specdata2}) numbers. */
public record specdata4(int specdata1, int specdata2) implements XdrType {
  public static specdata4 decode(XdrReader r) {
    return new specdata4(r.int32(), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(specdata1).int32(specdata2);
  }
}
