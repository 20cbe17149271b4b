package io.ossgw.nfs.v3;

import io.ossgw.core.namespace.VPaths;
import io.ossgw.nfs.xdr.nfsstat3;
import java.nio.charset.StandardCharsets;

/** Checks of filename3 arguments before they become VFS path components. */
final class Names {
  private Names() {}

  /**
   * A name to create, remove or rename: not empty, not "." or "..", no '/' or NUL, at most 255 bytes.
   *
   * @throws NfsError INVAL, ACCES (a '/'), NAMETOOLONG, or EXIST for "." and ".." when creating
   */
  static String entry(String name, boolean creating) {
    if (name.isEmpty() || name.indexOf('\0') >= 0) {
      throw new NfsError(nfsstat3.NFS3ERR_INVAL, "bad name");
    }
    if (name.equals(".") || name.equals("..")) {
      throw new NfsError(creating ? nfsstat3.NFS3ERR_EXIST : nfsstat3.NFS3ERR_INVAL, "'" + name + "'");
    }
    if (name.indexOf('/') >= 0) {
      throw new NfsError(nfsstat3.NFS3ERR_ACCES, "'/' in a name");
    }
    tooLong(name);
    return name;
  }

  /**
   * A name to look up: "." and ".." are the caller's business. A name with '/' is NFS3ERR_ACCES, as CREATE, REMOVE and
   * RENAME answer, and as Linux knfsd answered LOOKUP through lookup_one_len (RFC 1813 leaves the status open; a
   * component never contains '/'); an empty name or one with NUL simply does not exist.
   *
   * @throws NfsError ACCES (a '/'), NAMETOOLONG, NOENT
   */
  static void lookup(String name) {
    tooLong(name);
    if (name.indexOf('/') >= 0) {
      throw new NfsError(nfsstat3.NFS3ERR_ACCES, "'/' in a name");
    }
    if (name.isEmpty() || name.indexOf('\0') >= 0) {
      throw new NfsError(nfsstat3.NFS3ERR_NOENT, "no such name");
    }
  }

  private static void tooLong(String name) {
    if (name.length() > VPaths.NAME_MAX / 3 && name.getBytes(StandardCharsets.UTF_8).length > VPaths.NAME_MAX) {
      throw new NfsError(nfsstat3.NFS3ERR_NAMETOOLONG, "name over 255 bytes");
    }
  }
}
