package io.ossgw.nfs.v3;

import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.fs.DirCursors;
import io.ossgw.nfs.fs.DirStream;
import io.ossgw.nfs.handle.FileHandles;
import io.ossgw.nfs.handle.HandleIssuer;
import io.ossgw.nfs.xdr.READDIR3args;
import io.ossgw.nfs.xdr.READDIR3res;
import io.ossgw.nfs.xdr.READDIRPLUS3args;
import io.ossgw.nfs.xdr.READDIRPLUS3res;
import io.ossgw.nfs.xdr.entry3;
import io.ossgw.nfs.xdr.entryplus3;
import io.ossgw.nfs.xdr.fattr3;
import io.ossgw.nfs.xdr.nfsstat3;
import java.util.ArrayList;
import java.util.List;

/**
 * READDIR and READDIRPLUS (RFC 1813 §3.3.16, §3.3.17) over the engine's paged listing (ListObjectsV2 pages; a
 * reply reads only the pages it needs, {@link DirStream}). Positions come from {@link DirCursors}; READDIRPLUS takes every entry's attributes from the listing (no HEAD per
 * entry) and gives each a handle. Replies hold as many entries as fit in the client's count/maxcount, capped at
 * {@link Nfs3Limits#maxReaddirReply()}; dircount is not used to cut pages (as knfsd does).
 */
final class DirProcs {
  private final NfsState s;

  DirProcs(NfsState s) {
    this.s = s;
  }

  /** The directory, checked, where the page starts, and its entries from there. */
  private record Listing(Target dir, FileAttr attr, fattr3 attrs, DirStream entries, DirCursors.Page page) {}

  /** A name of a usual length (12 bytes) for guessing how many entries a reply holds ({@link DirStream}). */
  private static final String USUAL_NAME = "0123456789ab";

  /** The listing of a reply expected to hold about {@code expected} entries. */
  private Listing list(Call c, Target dir, long cookie, long verifier, int expected) {
    FileAttr da = s.stat(dir);
    fattr3 attrs = s.fattr(dir, da);
    try {
      if (!da.isDirectory()) {
        throw new NfsError(nfsstat3.NFS3ERR_NOTDIR, dir.path());
      }
      if (!Permissions.allowed(da, c.caller(dir.export()), Permissions.R)) {
        throw new NfsError(nfsstat3.NFS3ERR_ACCES, "read permission on " + dir.path());
      }
      DirCursors.Page page = s.cursors.start(dir.export().id(), dir.fileid(), cookie, verifier);
      DirStream entries = new DirStream(dir.fs(), dir.path(), page.after, page.skip, expected);
      return new Listing(dir, da, attrs, entries, page);
    } catch (FsException e) {
      throw new Failed(Status.of(e.errno()), attrs);
    } catch (NfsError e) {
      throw new Failed(e.status, attrs);
    }
  }

  private static final class Failed extends RuntimeException {
    final int status;
    final fattr3 attrs;

    Failed(int status, fattr3 attrs) {
      super(null, null, false, false);
      this.status = status;
      this.attrs = attrs;
    }
  }

  READDIR3res readdir(Call c, READDIR3args a) {
    try {
      Target dir = s.resolve(c, a.dir());
      int max = budget(a.count());
      Listing l = list(c, dir, a.cookie(), a.cookieverf(), max / entry3.size(USUAL_NAME));
      int used = READDIR3res.EMPTY_OK_SIZE;
      List<entry3> out = new ArrayList<>();
      DirCursors.Page p = l.page();
      boolean eof = true;
      for (Dot d : dots(p, l)) {
        int size = entry3.size(d.name);
        if (used + size > max) {
          eof = false;
          break;
        }
        used += size;
        out.add(new entry3(d.target.fileid(), d.name, d.cookie));
      }
      if (eof) {
        for (DirEntry e; (e = l.entries().peek()) != null; l.entries().next()) {
          int size = entry3.size(e.name());
          if (used + size > max) {
            eof = false;
            break;
          }
          used += size;
          String path = VPaths.child(dir.path(), e.name());
          long fileid = s.table.numberIfFirstSeen(dir.export().id(), path, e.attr().ino()); // no handle: not recorded
          out.add(new entry3(fileid, e.name(), p.cookieOf(e.position())));
        }
      }
      if (out.isEmpty() && !eof) {
        return READDIR3res.fail(nfsstat3.NFS3ERR_TOOSMALL, l.attrs());
      }
      p.end();
      return new READDIR3res(nfsstat3.NFS3_OK, l.attrs(), p.verifier, out, eof);
    } catch (FsException e) {
      return READDIR3res.fail(Status.of(e.errno()), null); // a later page of the listing failed (EIO)
    } catch (Failed f) {
      return READDIR3res.fail(f.status, f.attrs);
    } catch (NfsError e) {
      return READDIR3res.fail(e.status, null);
    }
  }

  READDIRPLUS3res readdirplus(Call c, READDIRPLUS3args a) {
    try {
      Target dir = s.resolve(c, a.dir());
      int max = budget(a.maxcount());
      Listing l = list(c, dir, a.cookie(), a.cookieverf(), max / entryplus3.size(USUAL_NAME, FileHandles.LENGTH));
      int used = READDIR3res.EMPTY_OK_SIZE;
      List<entryplus3> out = new ArrayList<>();
      DirCursors.Page p = l.page();
      boolean eof = true;
      for (Dot d : dots(p, l)) {
        int size = entryplus3.size(d.name, FileHandles.LENGTH);
        if (used + size > max) {
          eof = false;
          break;
        }
        used += size;
        out.add(new entryplus3(d.target.fileid(), d.name, d.cookie, s.fattr(d.target, d.attr),
            s.handleOf(dir.export(), d.target.path(), d.attr)));
      }
      if (eof) {
        Long parent = l.entries().peek() == null ? null : s.parentOf(dir); // once per reply, not per entry
        for (DirEntry e; (e = l.entries().peek()) != null; l.entries().next()) {
          int size = entryplus3.size(e.name(), FileHandles.LENGTH);
          if (used + size > max) {
            eof = false;
            break;
          }
          used += size;
          String path = VPaths.child(dir.path(), e.name());
          HandleIssuer.Issued h = s.issue(dir, parent, path, e.attr()); // one table read, no write for a plain file
          Target t = new Target(dir.export(), h.fileid(), path);
          out.add(new entryplus3(t.fileid(), e.name(), p.cookieOf(e.position()), s.fattr(t, e.attr()), h.handle()));
        }
      }
      if (out.isEmpty() && !eof) {
        return READDIRPLUS3res.fail(nfsstat3.NFS3ERR_TOOSMALL, l.attrs());
      }
      p.end();
      return new READDIRPLUS3res(nfsstat3.NFS3_OK, l.attrs(), p.verifier, out, eof);
    } catch (FsException e) {
      return READDIRPLUS3res.fail(Status.of(e.errno()), null); // a later page of the listing failed (EIO)
    } catch (Failed f) {
      return READDIRPLUS3res.fail(f.status, f.attrs);
    } catch (NfsError e) {
      return READDIRPLUS3res.fail(e.status, null);
    }
  }

  /** A "." or ".." entry of a page. */
  private record Dot(String name, long cookie, Target target, FileAttr attr) {}

  /** The dot entries this page starts with: both at cookie 0, ".." after cookie 1, none later. */
  private List<Dot> dots(DirCursors.Page p, Listing l) {
    List<Dot> out = new ArrayList<>(2);
    Target dir = l.dir();
    if (p.startCookie == DirCursors.DOT) {
      out.add(new Dot(".", DirCursors.DOT, dir, l.attr()));
    }
    if (p.startCookie <= DirCursors.DOTDOT) {
      if (VPaths.isRoot(dir.path())) {
        out.add(new Dot("..", DirCursors.DOTDOT, dir, l.attr()));
      } else {
        String parent = VPaths.parent(dir.path());
        try {
          FileAttr pa = dir.fs().getattr(parent);
          out.add(new Dot("..", DirCursors.DOTDOT, s.targetOf(dir.export(), parent, pa), pa));
        } catch (FsException e) {
          out.add(new Dot("..", DirCursors.DOTDOT, dir, l.attr())); // parent gone meanwhile: point at ourselves
        }
      }
    }
    return out;
  }

  private int budget(int count) {
    long asked = count & 0xffffffffL;
    return (int) Math.min(asked, s.limits.maxReaddirReply());
  }
}
