package io.ossgw.nfs.v3;

import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.nfs.export.Export;

/**
 * What a file handle resolved to.
 *
 * @param export the export it belongs to
 * @param fileid its fileid (the handle's, stable across renames)
 * @param path its current VFS path within the export
 * @param recorded true if the handle was a recorded one that resolved: the table holds {@code fileid} live at {@code
 *     path}, so a directory's entries may name it as their parent without asking the table again
 */
record Target(Export export, long fileid, String path, boolean recorded) {
  /** A target not known to be recorded (the parent of its entries is looked up when needed). */
  Target(Export export, long fileid, String path) {
    this(export, fileid, path, false);
  }

  VirtualFileSystem fs() {
    return export.fs();
  }
}
