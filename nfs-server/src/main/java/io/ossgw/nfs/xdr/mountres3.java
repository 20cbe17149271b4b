package io.ossgw.nfs.xdr;

import java.util.Arrays;

/**
 * RFC 1813 §5.2.1 mountres3. MNT3_OK carries mountres3_ok (fhandle, auth_flavors); other statuses nothing.
 *
 * @param status mountstat3
 * @param fhandle fhandle3 (same encoding as nfs_fh3), MNT3_OK only
 * @param authFlavors the RPC auth flavors the export accepts, MNT3_OK only
 */
public record mountres3(int status, nfs_fh3 fhandle, int[] authFlavors) implements XdrType {
  /** Most auth flavors decoded. */
  public static final int MAX_FLAVORS = 64;

  public static mountres3 fail(int status) {
    return new mountres3(status, null, null);
  }

  public static mountres3 decode(XdrReader r) {
    int status = r.int32();
    if (status != Nfs3.MNT3_OK) {
      return fail(status);
    }
    nfs_fh3 fh = nfs_fh3.decode(r);
    int n = r.int32();
    if (n < 0 || n > MAX_FLAVORS) {
      throw new XdrException("auth_flavors length " + n);
    }
    int[] flavors = new int[n];
    for (int i = 0; i < n; i++) {
      flavors[i] = r.int32();
    }
    return new mountres3(status, fh, flavors);
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    if (status == Nfs3.MNT3_OK) {
      fhandle.encode(w);
      w.int32(authFlavors.length);
      for (int f : authFlavors) {
        w.int32(f);
      }
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof mountres3 m && m.status == status && java.util.Objects.equals(m.fhandle, fhandle)
        && Arrays.equals(m.authFlavors, authFlavors);
  }

  @Override
  public int hashCode() {
    return status * 31 + java.util.Objects.hashCode(fhandle) + Arrays.hashCode(authFlavors);
  }

  @Override
  public String toString() {
    return "mountres3[status=" + status + ", fhandle=" + fhandle + ", authFlavors=" + Arrays.toString(authFlavors) + "]";
  }
}
