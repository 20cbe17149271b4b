package io.ossgw.nfs.v3;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileType;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.xdr.Nfs3;
import io.ossgw.nfs.xdr.fattr3;
import io.ossgw.nfs.xdr.nfstime3;
import io.ossgw.nfs.xdr.specdata3;
import java.time.Instant;

/** Engine attributes to RFC 1813 fattr3: fileid from the handle table, fsid from the export, directory times. */
final class Attrs {
  private final DirTimes dirTimes;

  Attrs(DirTimes dirTimes) {
    this.dirTimes = dirTimes;
  }

  fattr3 of(Export export, long fileid, String path, FileAttr a) {
    nfstime3 mtime = nfstime3.of(a.mtime());
    nfstime3 ctime = nfstime3.of(a.ctime());
    if (a.isDirectory()) {
      Instant changed = dirTimes.lastChange(export.id(), path);
      if (changed != null) {
        mtime = nfstime3.of(later(a.mtime(), changed));
        ctime = nfstime3.of(later(a.ctime(), changed));
      }
    }
    return new fattr3(type(a.type()), a.mode() & 07777, a.nlink(), a.uid(), a.gid(), a.size(), a.blocks() * 512,
        specdata3.NONE, export.id() & 0xffffffffL, fileid, nfstime3.of(a.atime()), mtime, ctime);
  }

  static int type(FileType t) {
    return switch (t) {
      case REGULAR -> Nfs3.NF3REG;
      case DIRECTORY -> Nfs3.NF3DIR;
      case SYMLINK -> Nfs3.NF3LNK;
    };
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
