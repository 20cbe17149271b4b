package io.ossgw.nfs.v4;

import io.ossgw.core.inode.InodeNumbers;
import io.ossgw.core.inode.InodeTable;
import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileType;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.auth.Identities;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.Exports;
import io.ossgw.nfs.export.Squash;
import io.ossgw.nfs.handle.FileHandles;
import io.ossgw.nfs.handle.HandleIssuer;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.nfs_fh3;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeUnix;

/**
 * Filehandles of NFSv4.1 (RFC 8881 §4) and the names they lead to: nfs_fh4 bytes to {@link V4Target} and back, with
 * the checks NFSv3 makes, the pseudo file system ({@link PseudoFs}) and lookups across it.
 *
 * <p>An object of an export has exactly its NFSv3 handle ({@link FileHandles}: 25 bytes with version byte 1, or 30 to
 * 64 bytes with version byte 2, MAC'd), so
 * a handle means the same object in both versions and survives restarts (FH4_PERSISTENT). A pseudo node has a 9-byte
 * handle: version byte 0x80 and the node's fileid; its length and first byte differ from v3's, so neither is ever
 * taken for the other (a v3 server answers a pseudo handle NFS3ERR_BADHANDLE). Pseudo handles carry no MAC: they name
 * directories of export names only, and who may see which is decided at every use.
 *
 * <p>Resolution errors (RFC 8881 §18.19.3, as v3's NfsState.resolve): bytes of neither format or a bad MAC
 * NFS4ERR_BADHANDLE; export gone, fileid removed, generation changed, pseudo node gone NFS4ERR_STALE; client not in the
 * export's networks (or not seeing a pseudo node) NFS4ERR_ACCESS; secure export and an unprivileged source port
 * NFS4ERR_PERM; AUTH_NONE on an export without all_squash NFS4ERR_WRONGSEC (v3 refuses it with AUTH_TOOWEAK; v4
 * reports security mismatches in the operation, §2.6.3.1). Thread-safe.
 */
public final class V4Handles {
  /** Length of a pseudo node's handle. */
  public static final int PSEUDO_LENGTH = 9;
  static final byte PSEUDO_VERSION = (byte) 0x80;
  /** Pseudo directories take AUTH_SYS and AUTH_NONE: they show only the export names the client may see. */
  private static final int[] PSEUDO_FLAVORS = {Nfs4.AUTH_SYS, Nfs4.AUTH_NONE};

  private final Exports exports;
  private final InodeTable table;
  private final FileHandles handles;
  private final HandleIssuer issuer;
  private final PseudoFs pseudo;
  private final io.ossgw.nfs.fs.NameChanges renames;
  /** Times of every pseudo node: the server's start (the nodes come into being with the export table). */
  private final Instant started = Instant.now();

  /** A child of a pseudo directory as READDIR lists it. */
  public record PseudoEntry(String name, V4Target target) {}

  /** @param renames the renames in progress (shared with NFSv3), which {@link #stat} waits for */
  public V4Handles(Exports exports, InodeTable table, FileHandles handles, io.ossgw.nfs.fs.NameChanges renames) {
    this.renames = renames;
    this.exports = exports;
    this.table = table;
    this.handles = handles;
    this.issuer = new HandleIssuer(table, handles);
    this.pseudo = new PseudoFs(exports);
  }

  /**
   * The root filehandle (PUTROOTFH, PUTPUBFH): the pseudo root, or with an export of "/" that export's root.
   *
   * @throws Nfs4Exception ACCESS, PERM or WRONGSEC for an export of "/" the peer may not use
   */
  public V4Target root(Peer p) {
    PseudoFs.Node n = pseudo.byPath("/");
    if (n != null) {
      return pseudoTarget(n);
    }
    Export e = pseudo.exportAt("/");
    checkClient(p, e);
    return exportRoot(e);
  }

  /**
   * PUTFH: the object a handle names.
   *
   * @throws Nfs4Exception BADHANDLE, STALE, ACCESS, PERM, WRONGSEC (see the class comment)
   */
  public V4Target resolve(byte[] fh, Peer p) {
    if (fh.length == PSEUDO_LENGTH && fh[0] == PSEUDO_VERSION) {
      PseudoFs.Node n = pseudo.byFileid(ByteBuffer.wrap(fh, 1, 8).getLong());
      if (n == null) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_STALE, "pseudo directory gone");
      }
      if (!pseudo.visible(n, address(p))) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_ACCESS, "client " + p.address() + " sees nothing below " + n.path());
      }
      return pseudoTarget(n);
    }
    FileHandles.Decoded d = fh.length <= io.ossgw.nfs.xdr.Nfs3.NFS3_FHSIZE ? handles.decode(new nfs_fh3(fh)) : null;
    if (d == null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BADHANDLE, "not a handle of this server");
    }
    Export e = exports.byId(d.exportId());
    if (e == null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_STALE, "export " + d.exportId() + " is gone");
    }
    checkClient(p, e);
    String path = issuer.pathOf(e.id(), d);
    if (path == null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_STALE, "fileid " + d.fileid() + " of export " + e.path() + " is gone");
    }
    return new V4Target(e, d.fileid(), path, fh.clone());
  }

  /**
   * Whether the peer may use the export, as v3 checks every call.
   *
   * @throws Nfs4Exception WRONGSEC (AUTH_NONE, not all_squash), ACCESS (address not allowed), PERM (secure export,
   *     source port 1024 or above)
   */
  public void checkClient(Peer p, Export e) {
    if (!(p.credential() instanceof RpcAuthTypeUnix) && e.squash() != Squash.ALL_SQUASH) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_WRONGSEC, "AUTH_NONE on " + e.path() + ", which is not all_squash");
    }
    if (p.address() == null || !e.allows(p.address().getAddress())) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ACCESS, "client " + p.address() + " may not use " + e.path());
    }
    if (e.secure() && p.address().getPort() >= 1024) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_PERM, "export " + e.path() + " requires a privileged port");
    }
  }

  /** The caller of {@code p} on the target's export after squashing; on a pseudo node the anonymous identity. */
  public Caller caller(Peer p, V4Target t) {
    if (t.pseudo()) {
      return new Caller(Export.NOBODY, Export.NOBODY, new int[0]);
    }
    return Identities.caller(p.credential(), t.export());
  }

  /**
   * The target of a path of an export with attributes {@code a} (its fileid recorded if new, unless it gets a named
   * handle, {@link HandleIssuer}): for operations that make or find objects (LOOKUP, CREATE, OPEN, READDIR).
   */
  public V4Target target(Export e, String path, FileAttr a) {
    HandleIssuer.Issued h = issuer.issue(e.id(), path, a); // the v3 handle: same rule, same bytes
    return new V4Target(e, h.fileid(), path, h.handle().data());
  }

  /**
   * As {@link #target(Export, String, FileAttr)} for an entry of a directory whose number {@code parent} gives
   * ({@link #parentOf}): one table read per entry (READDIR).
   */
  public V4Target target(Export e, String path, FileAttr a, Long parent) {
    HandleIssuer.Issued h = issuer.issue(e.id(), path, a, parent);
    return new V4Target(e, h.fileid(), path, h.handle().data());
  }

  /**
   * The live number of directory {@code dir} for its entries' handles ({@link HandleIssuer#parentOf}), asked of the
   * table once, when first needed, however many entries of one reply ask.
   */
  public java.util.function.Supplier<Long> parentOf(V4Target dir) {
    return new java.util.function.Supplier<>() {
      private boolean asked;
      private Long number;

      @Override
      public Long get() {
        if (!asked) {
          number = issuer.parentOf(dir.export().id(), dir.path());
          asked = true;
        }
        return number;
      }
    };
  }

  /** Records an object before a REMOVE or RENAME ({@link HandleIssuer#recordBeforeChange}). */
  public void recordBeforeChange(Export e, String path, FileAttr a) {
    issuer.recordBeforeChange(e.id(), path, a);
  }

  /**
   * The attributes of an operation's current or saved filehandle, taken before the operation changes anything; for a
   * pseudo node a read-only directory (mode 0555, root-owned, the server's start time).
   *
   * @throws V4Moved if the object is missing because a RENAME moved it meanwhile ({@link
   *     io.ossgw.nfs.fs.NameChanges}): the compound runs the operation again on the new path
   * @throws Nfs4Exception STALE if the object is gone, else the errno's status
   */
  public FileAttr stat(V4Target t) {
    try {
      return statAfter(t);
    } catch (Nfs4Exception e) {
      if (e.status() != Nfs4.NFS4ERR_STALE) {
        throw e;
      }
      FileHandles.Decoded d = handles.decode(new nfs_fh3(t.fh()));
      String now = d == null ? null : issuer.movedTo(t.export().id(), d, t.path(), renames);
      if (now != null) {
        throw new V4Moved(t, new V4Target(t.export(), t.fileid(), now, t.fh()));
      }
      throw e;
    }
  }

  /**
   * As {@link #stat} without waiting for renames: for a directory's attributes after an operation changed it
   * (change_info4), and for targets that are no filehandle of the compound.
   *
   * @throws Nfs4Exception STALE if the object is gone, else the errno's status
   */
  public FileAttr statAfter(V4Target t) {
    if (t.pseudo()) {
      return new FileAttr(t.fileid(), FileType.DIRECTORY, 0555, 0, 0, FileAttr.DIRECTORY_SIZE, started, started,
          started, null);
    }
    try {
      return getattr(t);
    } catch (FsException e) {
      if (e.errno() == Errno.ENOENT || e.errno() == Errno.ENOTDIR) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_STALE, t.path() + " is gone");
      }
      throw V4Status.error(e);
    }
  }

  /**
   * The engine's attributes of an export's target, without asking the engine's table for its number ({@link
   * InodeNumbers#unnumbered}: a store round trip in a cluster): replies show the target's fileid ({@link Fattr4}).
   *
   * @throws FsException as the file system's getattr
   */
  public FileAttr getattr(V4Target t) {
    return InodeNumbers.unnumbered(() -> t.fs().getattr(t.path()));
  }

  /**
   * The object {@code name} in directory {@code dir} (a checked component, see {@link Component4}). Crosses into an
   * export whose root is that name (from a pseudo directory, or from inside an export holding a nested one). Type and
   * permission checks of {@code dir} are the caller's.
   *
   * @throws Nfs4Exception NOENT (no such name), the checks of {@link #checkClient} when entering an export (so an
   *     export whose CIDR list refuses the peer is NFS4ERR_ACCESS, though the pseudo directory's listing hides it),
   *     the errno's status of the engine's lookup
   */
  public V4Target lookup(V4Target dir, String name, Peer p) {
    if (dir.pseudo()) {
      PseudoFs.Child c = pseudoChild(dir, name, p);
      if (c.export() != null) {
        checkClient(p, c.export());
        return exportRoot(c.export());
      }
      return pseudoTarget(c.node());
    }
    Export nested = pseudo.exportAt(join(fullPath(dir), name));
    if (nested != null && p.address() != null && nested.allows(p.address().getAddress())) {
      checkClient(p, nested);
      return exportRoot(nested);
    }
    String path = VPaths.child(dir.path(), name);
    try {
      return target(dir.export(), path, dir.fs().getattr(path));
    } catch (FsException e) {
      throw V4Status.error(e);
    }
  }

  /**
   * LOOKUPP: the parent directory. Inside an export the VFS parent; from an export's root the pseudo directory above
   * it (or the directory of an enclosing export).
   *
   * @throws Nfs4Exception NOENT at the root of the whole name space, ACCESS etc. entering an enclosing export
   */
  public V4Target parent(V4Target t, Peer p) {
    if (t.pseudo()) {
      if (t.path().equals("/")) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_NOENT, "the pseudo root has no parent");
      }
      return pseudoTarget(pseudo.byPath(PseudoFs.parent(t.path())));
    }
    try {
      if (!VPaths.isRoot(t.path())) {
        String up = VPaths.parent(t.path());
        return target(t.export(), up, t.fs().getattr(up));
      }
      if (t.export().path().equals("/")) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_NOENT, "the root export has no parent");
      }
      String up = PseudoFs.parent(t.export().path());
      PseudoFs.Node n = pseudo.byPath(up);
      if (n != null) {
        return pseudoTarget(n);
      }
      Exports.Match m = exports.match(up);
      checkClient(p, m.export());
      return target(m.export(), m.vfsPath(), m.export().fs().getattr(m.vfsPath()));
    } catch (FsException e) {
      throw V4Status.error(e);
    }
  }

  /**
   * The children of a pseudo directory the peer sees (for READDIR), sorted by name: pseudo directories with a visible
   * export below and the roots of exports the peer's address is allowed (their attributes are the export roots').
   *
   * @throws IllegalArgumentException if {@code dir} is not a pseudo node
   * @throws Nfs4Exception STALE if the node is gone, an export root's errno status
   */
  public List<PseudoEntry> list(V4Target dir, Peer p) {
    if (!dir.pseudo()) {
      throw new IllegalArgumentException(dir.path() + " is not a pseudo directory");
    }
    PseudoFs.Node n = pseudo.byFileid(dir.fileid());
    if (n == null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_STALE, "pseudo directory gone");
    }
    List<PseudoEntry> out = new ArrayList<>();
    for (PseudoFs.Child c : pseudo.children(n, address(p))) {
      out.add(new PseudoEntry(c.name(), c.export() != null ? exportRoot(c.export()) : pseudoTarget(c.node())));
    }
    return out;
  }

  /**
   * mounted_on_fileid (RFC 8881 §5.8.2.23): for an export's root the fileid of the pseudo node it is mounted on, else
   * the object's own fileid.
   */
  public long mountedOnFileid(V4Target t) {
    if (!t.pseudo() && VPaths.isRoot(t.path()) && !t.export().path().equals("/")) {
      return PseudoFs.fileidOf(t.export().path());
    }
    return t.fileid();
  }

  /** The flavors (RFC 5531 numbers) SECINFO reports for a target: its export's as MNT reports them; pseudo: both. */
  public int[] flavors(V4Target t) {
    return t.pseudo() ? PSEUDO_FLAVORS.clone() : Identities.flavors(t.export());
  }

  /**
   * SECINFO_NO_NAME of style PARENT: the flavors of the target's parent, without entering it.
   *
   * @throws Nfs4Exception NOENT at the root of the name space
   */
  public int[] parentFlavors(V4Target t) {
    if (t.pseudo() || (VPaths.isRoot(t.path()) && t.export().path().equals("/"))) {
      if (t.path().equals("/")) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_NOENT, "the root has no parent");
      }
      return PSEUDO_FLAVORS.clone();
    }
    if (!VPaths.isRoot(t.path())) {
      return Identities.flavors(t.export());
    }
    String up = PseudoFs.parent(t.export().path());
    return pseudo.byPath(up) != null ? PSEUDO_FLAVORS.clone() : Identities.flavors(exports.match(up).export());
  }

  /**
   * SECINFO: the flavors of the object {@code name} of directory {@code dir}, without the flavor check entering an
   * export makes (the point of SECINFO is to learn them).
   *
   * @throws Nfs4Exception NOENT for no such name, ACCESS for an export the peer may not use, the errno's status of the
   *     engine's lookup
   */
  public int[] flavors(V4Target dir, String name, Peer p) {
    if (dir.pseudo()) {
      PseudoFs.Child c = pseudoChild(dir, name, p);
      return c.export() != null ? Identities.flavors(c.export()) : PSEUDO_FLAVORS.clone();
    }
    Export nested = pseudo.exportAt(join(fullPath(dir), name));
    if (nested != null && p.address() != null && nested.allows(p.address().getAddress())) {
      return Identities.flavors(nested);
    }
    try {
      dir.fs().getattr(VPaths.child(dir.path(), name));
    } catch (FsException e) {
      throw V4Status.error(e);
    }
    return Identities.flavors(dir.export());
  }

  /**
   * The child {@code name} of a pseudo directory as the peer sees it.
   *
   * @throws Nfs4Exception NFS4ERR_ACCESS for an export its address may not use (not listed for it, but named: issue
   *     11 asks for "access denied" at mount, where Linux's knfsd answers NOENT), NOENT for no such name
   */
  private PseudoFs.Child pseudoChild(V4Target dir, String name, Peer p) {
    PseudoFs.Node n = pseudo.byFileid(dir.fileid());
    PseudoFs.Child c = n == null ? null : pseudo.child(n, name, address(p));
    if (c != null) {
      return c;
    }
    if (pseudo.exportAt(join(dir.path(), name)) != null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ACCESS, "client " + p.address() + " may not use " + join(dir.path(), name));
    }
    throw new Nfs4Exception(Nfs4.NFS4ERR_NOENT, name + " in " + dir.path());
  }

  /** The export's root. */
  public V4Target exportRoot(Export e) {
    try {
      return target(e, "/", e.fs().getattr("/"));
    } catch (FsException x) {
      throw V4Status.error(x);
    }
  }

  private static V4Target pseudoTarget(PseudoFs.Node n) {
    byte[] fh = new byte[PSEUDO_LENGTH];
    ByteBuffer.wrap(fh).put(PSEUDO_VERSION).putLong(n.fileid());
    return new V4Target(null, n.fileid(), n.path(), fh);
  }

  /** An export object's path in the whole name space ("/bucket" + "/dir"). */
  private static String fullPath(V4Target t) {
    String root = t.export().path();
    return VPaths.isRoot(t.path()) ? root : (root.equals("/") ? "" : root) + t.path();
  }

  private static String join(String dir, String name) {
    return dir.equals("/") ? "/" + name : dir + "/" + name;
  }

  private static InetAddress address(Peer p) {
    return p.address() == null ? null : p.address().getAddress();
  }
}
