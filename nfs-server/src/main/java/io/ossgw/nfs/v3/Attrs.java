package io.ossgw.nfs.v3;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileType;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.xdr.Nfs3;
import io.ossgw.nfs.xdr.fattr3;
import io.ossgw.nfs.xdr.nfstime3;
import io.ossgw.nfs.xdr.specdata3;

/**
 * Engine attributes to RFC 1813 fattr3: fileid from the handle table, fsid from the export. A directory's mtime/ctime
 * are the engine's, which move with every change of its entries (FUSE shows the same; SEMANTICS.md "Directory times").
 */
final class Attrs {
  fattr3 of(Export export, long fileid, String path, FileAttr a) {
    return new fattr3(type(a.type()), a.mode() & 07777, a.nlink(), a.uid(), a.gid(), a.size(), a.blocks() * 512,
        rdev(a), export.id() & 0xffffffffL, fileid, nfstime3.of(a.atime()), nfstime3.of(a.mtime()),
        nfstime3.of(a.ctime()));
  }

  static int type(FileType t) {
    return switch (t) {
      case REGULAR -> Nfs3.NF3REG;
      case DIRECTORY -> Nfs3.NF3DIR;
      case SYMLINK -> Nfs3.NF3LNK;
      case FIFO -> Nfs3.NF3FIFO;
      case CHARACTER_DEVICE -> Nfs3.NF3CHR;
      case BLOCK_DEVICE -> Nfs3.NF3BLK;
      case SOCKET -> Nfs3.NF3SOCK;
    };
  }

  /** fattr3.rdev: major and minor of a device (glibc's {@code major()}/{@code minor()} of st_rdev), else 0,0. */
  static specdata3 rdev(FileAttr a) {
    long d = a.rdev();
    if (!a.type().device() || d == 0) {
      return specdata3.NONE;
    }
    int major = (int) (((d >>> 32) & 0xfffff000L) | ((d >>> 8) & 0xfffL));
    int minor = (int) (((d >>> 12) & 0xffffff00L) | (d & 0xffL));
    return new specdata3(major, minor);
  }

  /** glibc's {@code makedev(major, minor)}: the st_rdev of a device from specdata3's two numbers (unsigned). */
  static long makedev(int major, int minor) {
    long ma = major & 0xffffffffL;
    long mi = minor & 0xffffffffL;
    return ((ma & 0xfffff000L) << 32) | ((ma & 0xfffL) << 8) | ((mi & 0xffffff00L) << 12) | (mi & 0xffL);
  }
}
