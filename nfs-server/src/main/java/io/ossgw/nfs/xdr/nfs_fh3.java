package io.ossgw.nfs.xdr;

import java.util.Arrays;
import java.util.HexFormat;

/** RFC 1813 §2.5 nfs_fh3: an opaque file handle of at most {@link Nfs3#NFS3_FHSIZE} (64) bytes. */
public record nfs_fh3(byte[] data) implements XdrType {
  public nfs_fh3 {
    if (data.length > Nfs3.NFS3_FHSIZE) {
      throw new IllegalArgumentException("file handle of " + data.length + " bytes");
    }
  }

  public static nfs_fh3 decode(XdrReader r) {
    return new nfs_fh3(r.opaque(Nfs3.NFS3_FHSIZE));
  }

  @Override
  public void encode(XdrWriter w) {
    w.opaque(data);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof nfs_fh3 h && Arrays.equals(data, h.data);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(data);
  }

  @Override
  public String toString() {
    return "nfs_fh3[" + HexFormat.of().formatHex(data) + "]";
  }
}
