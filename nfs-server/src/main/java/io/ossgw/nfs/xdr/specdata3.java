package io.ossgw.nfs.xdr;

/** RFC 1813 §2.5 specdata3: a device's major (specdata1) and minor (specdata2) numbers; 0,0 for other types. */
public record specdata3(int specdata1, int specdata2) implements XdrType {
  public static final specdata3 NONE = new specdata3(0, 0);

  public static specdata3 decode(XdrReader r) {
    return new specdata3(r.int32(), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(specdata1).int32(specdata2);
  }
}
