package io.ossgw.nfs.v4;

import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.fs.DirCursors;
import io.ossgw.nfs.fs.DirStream;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.READDIR4args;
import io.ossgw.nfs.v4.xdr.READDIR4resok;
import io.ossgw.nfs.v4.xdr.bitmap4;
import io.ossgw.nfs.v4.xdr.entry4;
import io.ossgw.nfs.v4.xdr.fattr4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * READDIR (RFC 8881 §18.23) of the current filehandle's directory, over the engine's paged listing (ListObjectsV2
 * pages; a reply reads only the pages it needs, {@link DirStream}) exactly as v3 READDIRPLUS: each entry's attributes
 * come from the listing, no HEAD per entry.
 *
 * <p>Cookies: 0 starts a listing; 1 and 2 are reserved (RFC 8881 §18.23.3: never handed out, NFS4ERR_BAD_COOKIE when
 * sent, as knfsd answers), so entries are numbered from 3. Positions are v3's ({@link DirCursors}): the cookie
 * verifier names a cursor that remembers the name behind each cookie, so a page resumes after that name in the
 * directory's current listing and entries created or removed between pages neither shift the others nor invalidate
 * the cookie. NFS4ERR_NOT_SAME is therefore never returned: the RFC asks for it only when the server finds a
 * verifier no longer valid, and a verifier this server no longer knows (evicted, or from before a restart) still
 * resumes, by taking the cookie as a position in the current listing. The verifier sent with cookie 0 is ignored.
 *
 * <p>Sizes: an entry costs its XDR bytes (list link, cookie, name, fattr4); entries are added while the reply stays
 * within maxcount (capped at {@link #MAX_REPLY} and at the session's ca_maxresponsesize less {@link #REPLY_RESERVE})
 * and their cookies and names within dircount (0: no hint). If not even one entry fits: NFS4ERR_TOOSMALL.
 *
 * <p>Attributes: those of attr_request this server supports ({@link Fattr4#encode}); write-only ones asked are
 * NFS4ERR_INVAL. An entry whose attributes cannot be had gets only rdattr_error (if asked), else the READDIR fails
 * with that error.
 *
 * <p>A pseudo directory lists the exports (and pseudo directories leading to them) the client's address may see,
 * cookie 3 + index, verifier 0.
 */
final class ReaddirOp implements Operation<READDIR4args> {
  /** Largest READDIR4resok built, whatever the client asks (as v3's READDIR cap). */
  static final int MAX_REPLY = 1 << 20;
  /** Reply bytes kept free for the rest of the compound (SEQUENCE, PUTFH, headers) under ca_maxresponsesize. */
  static final int REPLY_RESERVE = 1024;

  @Override
  public int op() {
    return Nfs4.OP_READDIR;
  }

  @Override
  public READDIR4args decode(XdrReader r) {
    return READDIR4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, READDIR4args a) {
    V4Target dir = ctx.current();
    Fattr4.checkReadable(a.attrRequest());
    if (a.cookie() == DirCursors.DOT || a.cookie() == DirCursors.DOTDOT) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BAD_COOKIE, "cookie " + a.cookie() + " is reserved");
    }
    Page page = new Page(budget(ctx, a.maxcount()), a.dircount() & 0xffffffffL);
    if (dir.pseudo()) {
      return pseudo(ctx, dir, a, page);
    }
    FileAttr da = ctx.fhs().stat(dir);
    if (!da.isDirectory()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_NOTDIR, dir.path());
    }
    if (!Permissions.allowed(da, ctx.fhs().caller(ctx.peer, dir), Permissions.R)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ACCESS, "read permission on " + dir.path());
    }
    DirCursors.Page cursor = ctx.server.cursors.start(dir.export().id(), dir.fileid(), a.cookie(), a.cookieverf());
    boolean eof = true;
    try {
      DirStream listing = new DirStream(dir.fs(), dir.path(), cursor.after, cursor.skip);
      java.util.function.Supplier<Long> parent = ctx.fhs().parentOf(dir); // one table read per reply, when needed
      for (DirEntry e; (e = listing.peek()) != null; listing.next()) {
        String path = VPaths.child(dir.path(), e.name());
        FileAttr ea = e.attr();
        fattr4 attrs = attrs(ctx, a.attrRequest(), () -> ctx.fhs().target(dir.export(), path, ea, parent.get()), ea);
        byte[] name = e.name().getBytes(StandardCharsets.UTF_8);
        if (!page.fits(name, attrs)) {
          eof = false;
          break;
        }
        page.add(new entry4(cursor.cookieOf(e.position()), name, attrs));
      }
    } catch (FsException e) {
      throw V4Status.error(e);
    }
    READDIR4resok r = page.result(cursor.verifier, eof);
    cursor.end();
    return r;
  }

  /** READDIR of a pseudo directory: the children the peer sees, in name order. */
  private static XdrType pseudo(CompoundContext ctx, V4Target dir, READDIR4args a, Page page) {
    List<V4Handles.PseudoEntry> children = ctx.fhs().list(dir, ctx.peer);
    int start = 0;
    if (a.cookie() != 0) {
      long k = a.cookie() - DirCursors.FIRST; // after entry k; a cookie over 2^63 is past the end
      start = k < 0 || k >= children.size() ? children.size() : (int) k + 1;
    }
    boolean eof = true;
    for (int i = start; i < children.size(); i++) {
      V4Handles.PseudoEntry c = children.get(i);
      fattr4 attrs = attrs(ctx, a.attrRequest(), c::target, null);
      byte[] name = c.name().getBytes(StandardCharsets.UTF_8);
      if (!page.fits(name, attrs)) {
        eof = false;
        break;
      }
      page.add(new entry4(DirCursors.FIRST + i, name, attrs));
    }
    return page.result(0, eof);
  }

  /**
   * An entry's attributes, or only rdattr_error when they cannot be had and it was asked (RFC 8881 §5.8.1.12).
   *
   * @param attr the entry's attributes from the listing, or null to stat the target (pseudo directory entries)
   * @throws Nfs4Exception the entry's error when rdattr_error was not asked
   */
  private static fattr4 attrs(CompoundContext ctx, bitmap4 want, Supplier<V4Target> target, FileAttr attr) {
    try {
      V4Target t = target.get();
      return ctx.server.attrs.encode(want, t, attr != null ? attr : ctx.fhs().statAfter(t));
    } catch (Nfs4Exception e) {
      fattr4 err = Fattr4.rdattrError(want, e.status());
      if (err == null) {
        throw e;
      }
      return err;
    } catch (FsException e) {
      fattr4 err = Fattr4.rdattrError(want, V4Status.of(e.errno()));
      if (err == null) {
        throw V4Status.error(e);
      }
      return err;
    }
  }

  /** The reply's byte budget: maxcount, within {@link #MAX_REPLY} and what the session's replies may hold. */
  private static int budget(CompoundContext ctx, int maxcount) {
    long max = Math.min(maxcount & 0xffffffffL, MAX_REPLY);
    if (ctx.session != null) {
      max = Math.min(max, (ctx.session.fore().maxresponsesize() & 0xffffffffL) - REPLY_RESERVE);
    }
    return (int) Math.max(max, 0);
  }

  /** The entries of one reply, with what they cost against maxcount and dircount. */
  private static final class Page {
    private final int maxcount;
    private final long dircount;
    private final List<entry4> entries = new ArrayList<>();
    private long bytes = READDIR4resok.EMPTY_SIZE;
    private long dirBytes;

    Page(int maxcount, long dircount) {
      this.maxcount = maxcount;
      this.dircount = dircount;
    }

    /** Whether an entry fits: always within maxcount, within dircount unless it would be the first. */
    boolean fits(byte[] name, fattr4 attrs) {
      int size = entry4.size(name.length, attrs);
      if (bytes + size > maxcount) {
        return false;
      }
      return dircount == 0 || entries.isEmpty() || dirBytes + entry4.dirSize(name.length) <= dircount;
    }

    void add(entry4 e) {
      bytes += entry4.size(e.name().length, e.attrs());
      dirBytes += entry4.dirSize(e.name().length);
      entries.add(e);
    }

    /**
     * @throws Nfs4Exception NFS4ERR_TOOSMALL if an entry was left and none fitted
     */
    READDIR4resok result(long verifier, boolean eof) {
      if (entries.isEmpty() && !eof) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_TOOSMALL, "maxcount " + maxcount + " holds no entry");
      }
      return new READDIR4resok(verifier, entries, eof);
    }
  }
}
