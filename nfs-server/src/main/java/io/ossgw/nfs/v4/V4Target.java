package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.nfs.export.Export;

/**
 * What a current or saved filehandle (RFC 8881 §16.2.3.1) resolved to: a node of the pseudo file system (RFC 8881
 * §7.3: the root and the directories leading to exports; {@code export} null) or an object of an export (the same
 * persistent handle, fileid and path as NFSv3, {@link io.ossgw.nfs.handle.FileHandles}).
 *
 * @param export the export, null for a pseudo file system node
 * @param fileid the object's fileid within its export (for a pseudo node: the node's own number, see the pseudo file
 *     system)
 * @param path the VFS path within the export ("/" for its root), or the pseudo path ("/" for the root, "/a" for an
 *     intermediate directory of export "/a/b")
 * @param fh the encoded nfs_fh4 bytes (at most {@link io.ossgw.nfs.v4.xdr.Nfs4#NFS4_FHSIZE})
 */
public record V4Target(Export export, long fileid, String path, byte[] fh) {
  /** Whether this is a pseudo file system node (no export, read-only, only directories). */
  public boolean pseudo() {
    return export == null;
  }

  /** The export's file system; only for targets that are not {@link #pseudo()}. */
  public VirtualFileSystem fs() {
    return export.fs();
  }
}
