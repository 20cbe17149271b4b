package io.ossgw.nfs.v3;

import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.handle.FileHandles;

/**
 * What a file handle resolved to.
 *
 * @param export the export it belongs to
 * @param fileid its fileid (the handle's, stable across renames)
 * @param path its current VFS path within the export
 * @param recorded true if the handle was a recorded one that resolved: the table holds {@code fileid} live at {@code
 *     path}, so a directory's entries may name it as their parent without asking the table again
 * @param handle the decoded handle it was resolved from, or null for a target made from a path: a request whose
 *     object is missing resolves it again after renames in progress ({@link NfsState#stat})
 */
record Target(Export export, long fileid, String path, boolean recorded, FileHandles.Decoded handle) {
  /** A target not known to be recorded (the parent of its entries is looked up when needed). */
  Target(Export export, long fileid, String path) {
    this(export, fileid, path, false, null);
  }

  VirtualFileSystem fs() {
    return export.fs();
  }
}
