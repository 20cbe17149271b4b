package io.ossgw.nfs.v3;

import com.github.benmanes.caffeine.cache.Cache;
import io.ossgw.core.cache.Caches;
import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FileType;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.fs.Entries;
import io.ossgw.nfs.handle.HandleIssuer;
import io.ossgw.nfs.xdr.CREATE3args;
import io.ossgw.nfs.xdr.CREATE3res;
import io.ossgw.nfs.xdr.LINK3args;
import io.ossgw.nfs.xdr.LINK3res;
import io.ossgw.nfs.xdr.MKDIR3args;
import io.ossgw.nfs.xdr.MKDIR3res;
import io.ossgw.nfs.xdr.MKNOD3args;
import io.ossgw.nfs.xdr.MKNOD3res;
import io.ossgw.nfs.xdr.Nfs3;
import io.ossgw.nfs.xdr.SYMLINK3args;
import io.ossgw.nfs.xdr.SYMLINK3res;
import io.ossgw.nfs.xdr.diropargs3;
import io.ossgw.nfs.xdr.fattr3;
import io.ossgw.nfs.xdr.nfsstat3;
import io.ossgw.nfs.xdr.sattr3;
import io.ossgw.nfs.xdr.wcc_attr;
import io.ossgw.nfs.xdr.wcc_data;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * CREATE, MKDIR, SYMLINK, MKNOD and LINK (RFC 1813 §3.3.8–§3.3.11, §3.3.15). MKNOD answers NFS3ERR_NOTSUPP and
 * LINK NFS3ERR_PERM: OSS has neither device nodes nor hard links.
 */
final class CreateProcs {
  private final NfsState s;
  /** EXCLUSIVE create verifiers by (export, path): a retransmitted EXCLUSIVE CREATE must succeed again. */
  private final Cache<String, Long> exclusive = Caches.newBuilder().maximumSize(10_000)
      .expireAfterWrite(Duration.ofMinutes(10)).build();

  CreateProcs(NfsState s) {
    this.s = s;
  }

  /** The directory an entry is created in, checked: writable export, a directory, w+x for the caller. */
  private record Where(Target dir, wcc_attr before, Caller caller, String path) {}

  private Where where(Call c, diropargs3 d) {
    Target dir = s.resolve(c, d.dir());
    FileAttr da = s.stat(dir);
    wcc_attr before = s.fattr(dir, da).wcc();
    try {
      if (dir.export().readOnly()) {
        throw new NfsError(nfsstat3.NFS3ERR_ROFS, dir.export().path());
      }
      if (!da.isDirectory()) {
        throw new NfsError(nfsstat3.NFS3ERR_NOTDIR, dir.path());
      }
      String name = Names.entry(d.name(), true);
      Caller caller = c.caller(dir.export());
      if (!Permissions.canModifyDir(da, caller)) {
        throw new NfsError(nfsstat3.NFS3ERR_ACCES, "write permission on " + dir.path());
      }
      return new Where(dir, before, caller, VPaths.child(dir.path(), name));
    } catch (NfsError e) {
      throw new Failed(e.status, new wcc_data(before, s.fattr(dir, da)));
    }
  }

  /** A failure with the directory's wcc_data already known. */
  private static final class Failed extends RuntimeException {
    final int status;
    final wcc_data wcc;

    Failed(int status, wcc_data wcc) {
      super(null, null, false, false);
      this.status = status;
      this.wcc = wcc;
    }
  }

  private wcc_data dirWcc(Where w) {
    return s.wcc(w.before(), w.dir());
  }

  private wcc_data failWcc(Where w, Target dir) {
    return w != null ? dirWcc(w) : dir == null ? wcc_data.EMPTY : new wcc_data(null, s.postOp(dir));
  }

  CREATE3res create(Call c, CREATE3args a) {
    Where w = null;
    try {
      w = where(c, a.where());
      Target dir = w.dir();
      // the name is expected to be free: one ListObjectsV2 finds that out (a HEAD 404 and a LIST otherwise)
      FileAttr existing = Entries.attrBeforeCreateOrNull(dir.fs(), w.path());
      long verf = a.how().mode() == Nfs3.EXCLUSIVE ? ByteBuffer.wrap(a.how().verf()).getLong() : 0;
      String key = dir.export().id() + ":" + w.path();
      if (existing != null) {
        switch (a.how().mode()) {
          case Nfs3.GUARDED -> throw new NfsError(nfsstat3.NFS3ERR_EXIST, w.path());
          case Nfs3.EXCLUSIVE -> {
            Long stored = exclusive.getIfPresent(key);
            if (stored == null || stored != verf) {
              throw new NfsError(nfsstat3.NFS3ERR_EXIST, w.path());
            }
          }
          default -> {
            if (!existing.isRegular()) {
              throw new NfsError(nfsstat3.NFS3ERR_EXIST, w.path());
            }
            // an open of the existing file: only a size applies (O_TRUNC), checked as a truncate; the other
            // attributes are those a new file would have had, not a chmod or chown (knfsd does the same)
            sattr3 attrs = a.how().objAttributes();
            if (attrs != null && attrs.size() != null) {
              SetAttr ch = AttrProcs.check(existing, new sattr3(null, null, null, attrs.size(), Nfs3.DONT_CHANGE,
                  null, Nfs3.DONT_CHANGE, null), w.caller());
              existing = dir.fs().setattr(w.path(), ch, null, w.caller());
            }
          }
        }
        return done(w, existing);
      }
      sattr3 attrs = a.how().objAttributes() != null ? a.how().objAttributes() : sattr3.NONE;
      int mode = attrs.mode() != null ? attrs.mode() & 07777 : 0644;
      FileHandle h = dir.fs().create(w.path(), mode, OpenFlags.READ_WRITE, a.how().mode() != Nfs3.UNCHECKED, w.caller());
      s.open.adopt(dir.export(), w.path(), h);
      if (a.how().mode() == Nfs3.EXCLUSIVE) {
        exclusive.put(key, verf);
      }
      FileAttr created = dir.fs().getattr(w.path());
      // the mode went with the create; owner, group, times (and a non-zero size) follow on the new file
      sattr3 rest = new sattr3(null, attrs.uid(), attrs.gid(), attrs.size() != null && attrs.size() > 0
          ? attrs.size() : null, attrs.setAtime(), attrs.atime(), attrs.setMtime(), attrs.mtime());
      SetAttr ch = AttrProcs.check(created, rest, w.caller());
      if (ch.changesMeta() || ch.size() != null) {
        created = dir.fs().setattr(w.path(), ch, h, w.caller());
      }
      if (dir.export().durableCreate()) {
        dir.fs().fsync(h, false); // the empty object, with its mode and owner, in OSS before the reply
      }
      return done(w, created);
    } catch (Failed f) {
      return CREATE3res.fail(f.status, f.wcc);
    } catch (NfsError e) {
      return CREATE3res.fail(e.status, failWcc(w, null));
    } catch (FsException e) {
      return CREATE3res.fail(Status.of(e.errno()), failWcc(w, null));
    }
  }

  /**
   * The reply of a CREATE that made or opened {@code w.path()}: its handle by {@link io.ossgw.nfs.handle.HandleIssuer}'s
   * rule, so a new plain file gets a named handle and the table writes (and commits) nothing per CREATE; the handle
   * needs nothing written to stay valid after a crash, and LOOKUP and READDIRPLUS give the same one.
   */
  private CREATE3res done(Where w, FileAttr attr) {
    HandleIssuer.Issued h = s.issue(w.dir(), s.parentOf(w.dir()), w.path(), attr);
    Target t = new Target(w.dir().export(), h.fileid(), w.path());
    return new CREATE3res(nfsstat3.NFS3_OK, h.handle(), s.fattr(t, attr), dirWcc(w));
  }

  MKDIR3res mkdir(Call c, MKDIR3args a) {
    Where w = null;
    try {
      w = where(c, a.where());
      Target dir = w.dir();
      sattr3 attrs = a.attributes();
      int mode = attrs.mode() != null ? attrs.mode() & 07777 : 0755;
      FileAttr made = dir.fs().mkdir(w.path(), mode, w.caller());
      made = applyRest(dir, w, made, attrs);
      Target t = s.targetOf(dir.export(), w.path(), made);
      return new MKDIR3res(nfsstat3.NFS3_OK, s.handleOf(dir.export(), w.path(), made), s.fattr(t, made), dirWcc(w));
    } catch (Failed f) {
      return MKDIR3res.fail(f.status, f.wcc);
    } catch (NfsError e) {
      return MKDIR3res.fail(e.status, failWcc(w, null));
    } catch (FsException e) {
      return MKDIR3res.fail(Status.of(e.errno()), failWcc(w, null));
    }
  }

  SYMLINK3res symlink(Call c, SYMLINK3args a) {
    Where w = null;
    try {
      w = where(c, a.where());
      Target dir = w.dir();
      if (a.symlinkData().isEmpty()) {
        throw new NfsError(nfsstat3.NFS3ERR_INVAL, "empty symlink target");
      }
      FileAttr made = dir.fs().symlink(a.symlinkData(), w.path(), w.caller());
      Target t = s.targetOf(dir.export(), w.path(), made);
      return new SYMLINK3res(nfsstat3.NFS3_OK, s.handleOf(dir.export(), w.path(), made), s.fattr(t, made),
          dirWcc(w));
    } catch (Failed f) {
      return SYMLINK3res.fail(f.status, f.wcc);
    } catch (NfsError e) {
      return SYMLINK3res.fail(e.status, failWcc(w, null));
    } catch (FsException e) {
      return SYMLINK3res.fail(Status.of(e.errno()), failWcc(w, null));
    }
  }

  /** Owner, group and times given at creation (the mode went with the create itself). */
  private FileAttr applyRest(Target dir, Where w, FileAttr made, sattr3 attrs) {
    sattr3 rest = new sattr3(null, attrs.uid(), attrs.gid(), null, attrs.setAtime(), attrs.atime(), attrs.setMtime(),
        attrs.mtime());
    SetAttr ch = AttrProcs.check(made, rest, w.caller());
    return ch.changesMeta() ? dir.fs().setattr(w.path(), ch, null, w.caller()) : made;
  }

  /**
   * RFC 1813 §3.3.11 MKNOD: NF3CHR/NF3BLK (with their specdata3 major/minor), NF3SOCK and NF3FIFO become special
   * files (VirtualFileSystem#mknod: one PutObject); NF3REG, NF3DIR and NF3LNK are NFS3ERR_BADTYPE (they have their own
   * procedures). Mode defaults to 0644 when the client sends none; owner and times of the sattr3 are applied after.
   */
  MKNOD3res mknod(Call c, MKNOD3args a) {
    FileType type = switch (a.type()) {
      case Nfs3.NF3CHR -> FileType.CHARACTER_DEVICE;
      case Nfs3.NF3BLK -> FileType.BLOCK_DEVICE;
      case Nfs3.NF3SOCK -> FileType.SOCKET;
      case Nfs3.NF3FIFO -> FileType.FIFO;
      default -> null;
    };
    if (type == null) {
      Target dir = null;
      try {
        dir = s.resolve(c, a.where().dir());
        fattr3 da = s.postOp(dir);
        return MKNOD3res.fail(nfsstat3.NFS3ERR_BADTYPE, new wcc_data(da == null ? null : da.wcc(), da));
      } catch (NfsError e) {
        return MKNOD3res.fail(e.status, dir == null ? wcc_data.EMPTY : new wcc_data(null, s.postOp(dir)));
      }
    }
    Where w = null;
    try {
      w = where(c, a.where());
      Target dir = w.dir();
      sattr3 attrs = a.attributes();
      int mode = attrs.mode() != null ? attrs.mode() & 07777 : 0644;
      long rdev = a.spec() == null ? 0 : Attrs.makedev(a.spec().specdata1(), a.spec().specdata2());
      FileAttr made = dir.fs().mknod(w.path(), type, mode, rdev, w.caller());
      made = applyRest(dir, w, made, attrs);
      Target t = s.targetOf(dir.export(), w.path(), made);
      return new MKNOD3res(nfsstat3.NFS3_OK, s.handleOf(dir.export(), w.path(), made), s.fattr(t, made), dirWcc(w));
    } catch (Failed f) {
      return MKNOD3res.fail(f.status, f.wcc);
    } catch (NfsError e) {
      return MKNOD3res.fail(e.status, failWcc(w, null));
    } catch (FsException e) {
      return MKNOD3res.fail(Status.of(e.errno()), failWcc(w, null));
    }
  }

  /**
   * OSS has no hard links: NFS3ERR_PERM, which the Linux client hands to link(2) as EPERM, the errno POSIX gives for "the
   * file system does not support hard links" and the one FUSE answers. NFS3ERR_NOTSUPP (RFC 1813 §3.3.15 allows it)
   * reached applications as the kernel-internal ENOTSUPP 524 ("Unknown error 524"). FSINFO already announces no links.
   */
  LINK3res link(Call c, LINK3args a) {
    Target file = null;
    try {
      file = s.resolve(c, a.file());
      Target dir = s.resolve(c, a.link().dir());
      fattr3 da = s.postOp(dir);
      return new LINK3res(dir.export().readOnly() ? nfsstat3.NFS3ERR_ROFS : nfsstat3.NFS3ERR_PERM,
          s.postOp(file), new wcc_data(da == null ? null : da.wcc(), da));
    } catch (NfsError e) {
      return new LINK3res(e.status, file == null ? null : s.postOp(file), wcc_data.EMPTY);
    }
  }
}
