package io.ossgw.nfs.v3;

import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.nfs.export.Export;

/**
 * What a file handle resolved to.
 *
 * @param export the export it belongs to
 * @param fileid its fileid (the handle's, stable across renames)
 * @param path its current VFS path within the export
 */
record Target(Export export, long fileid, String path) {
  VirtualFileSystem fs() {
    return export.fs();
  }
}
