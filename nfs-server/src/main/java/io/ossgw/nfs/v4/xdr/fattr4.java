package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §3.3.8 fattr4: which attributes follow ({@code attrmask}) and their values, each encoded as its own XDR
 * type in attribute-number order ({@code attr_vals}, an attrlist4 opaque). Built and read by {@code v4.Fattr4}.
 *
 * @param attrmask the attributes present
 * @param attrVals their encoded values, concatenated
 */
public record fattr4(bitmap4 attrmask, byte[] attrVals) implements XdrType {
  /** Bound on attr_vals decoded: far above any attribute set of this server (a filehandle is 128 bytes). */
  public static final int LIMIT = 64 * 1024;

  public static fattr4 decode(XdrReader r) {
    bitmap4 mask = bitmap4.decode(r);
    return new fattr4(mask, r.opaque(LIMIT));
  }

  @Override
  public void encode(XdrWriter w) {
    attrmask.encode(w);
    w.opaque(attrVals);
  }
}
