package io.ossgw.nfs.xdr;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * RFC 1813 §3.3.8 createhow3: {@code union switch (createmode3 mode) { case UNCHECKED: case GUARDED: sattr3
 * obj_attributes; case EXCLUSIVE: createverf3 verf; }}.
 *
 * @param mode {@link Nfs3#UNCHECKED}, {@link Nfs3#GUARDED} or {@link Nfs3#EXCLUSIVE}
 * @param objAttributes the attributes for UNCHECKED and GUARDED, else null
 * @param verf the 8-byte create verifier for EXCLUSIVE, else null
 */
public record createhow3(int mode, sattr3 objAttributes, byte[] verf) implements XdrType {
  public createhow3 {
    if (mode == Nfs3.EXCLUSIVE ? verf == null || verf.length != Nfs3.NFS3_CREATEVERFSIZE : objAttributes == null) {
      throw new IllegalArgumentException("createhow3 arm does not match mode " + mode);
    }
  }

  public static createhow3 decode(XdrReader r) {
    int mode = r.enumValue(Nfs3.UNCHECKED, Nfs3.EXCLUSIVE);
    return mode == Nfs3.EXCLUSIVE
        ? new createhow3(mode, null, r.fixedOpaque(Nfs3.NFS3_CREATEVERFSIZE))
        : new createhow3(mode, sattr3.decode(r), null);
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(mode);
    if (mode == Nfs3.EXCLUSIVE) {
      w.fixedOpaque(verf);
    } else {
      objAttributes.encode(w);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof createhow3 c && c.mode == mode && java.util.Objects.equals(c.objAttributes, objAttributes)
        && Arrays.equals(c.verf, verf);
  }

  @Override
  public int hashCode() {
    return mode * 31 + java.util.Objects.hashCode(objAttributes) * 17 + Arrays.hashCode(verf);
  }

  @Override
  public String toString() {
    return "createhow3[mode=" + mode + ", obj=" + objAttributes + ", verf="
        + (verf == null ? null : HexFormat.of().formatHex(verf)) + "]";
  }
}
