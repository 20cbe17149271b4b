package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.xdr.Nfs4.*;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileType;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.FsStats;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.bitmap4;
import io.ossgw.nfs.v4.xdr.fattr4;
import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrWriter;
import io.ossgw.nfs.xdr.Xdrs;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;

/**
 * The fattr4 codec (RFC 8881 §5): attributes of an object encoded for GETATTR, READDIR entries and OPEN/CREATE
 * replies ({@link #encode}), and the settable ones decoded for SETATTR, CREATE and OPEN ({@link #decodeSet}).
 *
 * <p>Supported ({@link #SUPPORTED}): every REQUIRED attribute and the RECOMMENDED ones a Linux client asks for; asked
 * for, others are simply left out. Values: fsid is (export id, 0) per export so each export is its own file system,
 * (0, 1) for the pseudo file system; fileid and filehandle as NFSv3's; owner and owner_group are decimal uid/gid
 * strings (AUTH_SYS, as Linux sends and expects without id mapping); {@link #change} comes from ctime, mtime and
 * size; maxread/maxwrite 1 MiB; maxfilesize OSS's largest object; time_delta 1 ns (NFSv3 FSINFO says the same);
 * space and files from the engine's statfs (fetched only when one of them is asked). Settable: mode, owner,
 * owner_group, size, time_access_set, time_modify_set. Thread-safe.
 */
public final class Fattr4 {
  /** Largest READ and WRITE (maxread, maxwrite), in bytes. */
  public static final long MAX_IO = 1 << 20;
  /** OSS's largest object: 10,000 parts of 5 GiB (as v3's FSINFO maxfilesize). */
  public static final long MAX_FILE_SIZE = 10_000L * 5 * 1024 * 1024 * 1024;

  /** Attributes this server returns. */
  public static final bitmap4 SUPPORTED = bitmap4.of(FATTR4_SUPPORTED_ATTRS, FATTR4_TYPE, FATTR4_FH_EXPIRE_TYPE,
      FATTR4_CHANGE, FATTR4_SIZE, FATTR4_LINK_SUPPORT, FATTR4_SYMLINK_SUPPORT, FATTR4_NAMED_ATTR, FATTR4_FSID,
      FATTR4_UNIQUE_HANDLES, FATTR4_LEASE_TIME, FATTR4_RDATTR_ERROR, FATTR4_CANSETTIME, FATTR4_CASE_INSENSITIVE,
      FATTR4_CASE_PRESERVING, FATTR4_CHOWN_RESTRICTED, FATTR4_FILEHANDLE, FATTR4_FILEID, FATTR4_FILES_AVAIL,
      FATTR4_FILES_FREE, FATTR4_FILES_TOTAL, FATTR4_HOMOGENEOUS, FATTR4_MAXFILESIZE, FATTR4_MAXLINK, FATTR4_MAXNAME,
      FATTR4_MAXREAD, FATTR4_MAXWRITE, FATTR4_MODE, FATTR4_NO_TRUNC, FATTR4_NUMLINKS, FATTR4_OWNER,
      FATTR4_OWNER_GROUP, FATTR4_RAWDEV, FATTR4_SPACE_AVAIL, FATTR4_SPACE_FREE, FATTR4_SPACE_TOTAL, FATTR4_SPACE_USED,
      FATTR4_TIME_ACCESS, FATTR4_TIME_ACCESS_SET, FATTR4_TIME_DELTA, FATTR4_TIME_METADATA, FATTR4_TIME_MODIFY,
      FATTR4_TIME_MODIFY_SET, FATTR4_MOUNTED_ON_FILEID, FATTR4_SUPPATTR_EXCLCREAT);
  /** Attributes SETATTR (and CREATE/OPEN createattrs) may set. */
  public static final bitmap4 SETTABLE = bitmap4.of(FATTR4_SIZE, FATTR4_MODE, FATTR4_OWNER, FATTR4_OWNER_GROUP,
      FATTR4_TIME_ACCESS_SET, FATTR4_TIME_MODIFY_SET);
  /** Write-only attributes: asked for by GETATTR or VERIFY they are NFS4ERR_INVAL (RFC 8881 §5.5). */
  public static final bitmap4 WRITE_ONLY = bitmap4.of(FATTR4_TIME_ACCESS_SET, FATTR4_TIME_MODIFY_SET);
  /**
   * suppattr_exclcreat (RFC 8881 §5.8.1.14): what OPEN EXCLUSIVE4_1 may set along with its verifier. The times are
   * left out as Linux knfsd does, so a server may keep the verifier in them.
   */
  public static final bitmap4 EXCLCREAT = bitmap4.of(FATTR4_SIZE, FATTR4_MODE, FATTR4_OWNER, FATTR4_OWNER_GROUP);
  private static final bitmap4 STATFS = bitmap4.of(FATTR4_FILES_AVAIL, FATTR4_FILES_FREE, FATTR4_FILES_TOTAL,
      FATTR4_SPACE_AVAIL, FATTR4_SPACE_FREE, FATTR4_SPACE_TOTAL);
  private static final FsStats NO_STATS = new FsStats(4096, 0, 0, 0, 0, 255);

  private final V4Handles fhs;
  private final long leaseSeconds;

  /**
   * @param fhs the handle resolver (mounted_on_fileid)
   * @param lease the lease (lease_time, whole seconds)
   */
  public Fattr4(V4Handles fhs, Duration lease) {
    this.fhs = fhs;
    this.leaseSeconds = lease.toSeconds();
  }

  /**
   * The attributes of {@code want} this server supports, of target {@code t} whose attributes are {@code a} ({@link
   * V4Handles#stat}); rdattr_error, if asked, is NFS4_OK. Write-only attributes are left out (GETATTR refuses them
   * first, {@link #checkReadable}).
   *
   * @throws Nfs4Exception the errno's status if the engine's statfs fails (only asked with space/files attributes)
   */
  public fattr4 encode(bitmap4 want, V4Target t, FileAttr a) {
    bitmap4 mask = want.and(SUPPORTED).minus(WRITE_ONLY);
    FsStats st = mask.and(STATFS).isEmpty() ? null : statfs(t);
    byte[] vals = Xdrs.toBytes(w -> {
      for (int n = mask.next(0); n >= 0; n = mask.next(n + 1)) {
        put(w, n, t, a, st);
      }
    });
    return new fattr4(mask, vals);
  }

  /**
   * For a READDIR entry whose attributes cannot be had: only rdattr_error with that status (RFC 8881 §5.8.1.12), or
   * null if {@code want} does not hold rdattr_error (the caller then fails with the status).
   */
  public static fattr4 rdattrError(bitmap4 want, int status) {
    if (!want.has(FATTR4_RDATTR_ERROR)) {
      return null;
    }
    return new fattr4(bitmap4.of(FATTR4_RDATTR_ERROR), Xdrs.toBytes(w -> w.int32(status)));
  }

  /**
   * @throws Nfs4Exception NFS4ERR_INVAL if {@code want} holds a write-only attribute (GETATTR, RFC 8881 §18.7.3)
   */
  public static void checkReadable(bitmap4 want) {
    if (!want.and(WRITE_ONLY).isEmpty()) {
      throw new Nfs4Exception(NFS4ERR_INVAL, "write-only attributes asked: " + want.and(WRITE_ONLY));
    }
  }

  /**
   * VERIFY/NVERIFY (RFC 8881 §18.31, §18.15): whether the object's attributes equal the given ones, compared in their
   * encoded form.
   *
   * @throws Nfs4Exception ATTRNOTSUPP for an attribute this server does not support; INVAL for rdattr_error or a
   *     write-only attribute
   */
  public boolean same(fattr4 given, V4Target t, FileAttr a) {
    bitmap4 m = given.attrmask();
    if (!m.minus(SUPPORTED).isEmpty()) {
      throw new Nfs4Exception(NFS4ERR_ATTRNOTSUPP, "unsupported attributes " + m.minus(SUPPORTED));
    }
    if (m.has(FATTR4_RDATTR_ERROR) || !m.and(WRITE_ONLY).isEmpty()) {
      throw new Nfs4Exception(NFS4ERR_INVAL, "rdattr_error or a write-only attribute to verify");
    }
    return Arrays.equals(encode(m, t, a).attrVals(), given.attrVals());
  }

  /**
   * The change attribute (RFC 8881 §5.8.1.4): the later of ctime and mtime in nanoseconds, the part below a
   * millisecond replaced by a mix of that part and the size. So it grows with every change the engine stamps with a
   * new time, and still differs when only the size changed within one millisecond (the engine's times are
   * millisecond-grained for objects read back from OSS).
   */
  public static long change(FileAttr a) {
    Instant t = a.ctime().isAfter(a.mtime()) ? a.ctime() : a.mtime();
    long sub = t.getNano() % 1_000_000;
    return t.toEpochMilli() * 1_000_000L + Math.floorMod(sub ^ (a.size() * 0x9E3779B1L), 1_000_000L);
  }

  private FsStats statfs(V4Target t) {
    if (t.pseudo()) {
      return NO_STATS;
    }
    try {
      return t.fs().statfs();
    } catch (FsException e) {
      throw V4Status.error(e);
    }
  }

  private void put(XdrWriter w, int attr, V4Target t, FileAttr a, FsStats st) {
    switch (attr) {
      case FATTR4_SUPPORTED_ATTRS -> SUPPORTED.encode(w);
      case FATTR4_TYPE -> w.int32(type(a.type()));
      case FATTR4_FH_EXPIRE_TYPE -> w.int32(FH4_PERSISTENT);
      case FATTR4_CHANGE -> w.int64(change(a));
      case FATTR4_SIZE -> w.int64(a.size());
      case FATTR4_LINK_SUPPORT, FATTR4_SYMLINK_SUPPORT, FATTR4_UNIQUE_HANDLES, FATTR4_CANSETTIME,
          FATTR4_CASE_PRESERVING, FATTR4_CHOWN_RESTRICTED, FATTR4_HOMOGENEOUS, FATTR4_NO_TRUNC -> w.bool(true);
      case FATTR4_NAMED_ATTR, FATTR4_CASE_INSENSITIVE -> w.bool(false);
      case FATTR4_FSID -> {
        if (t.pseudo()) {
          w.int64(0).int64(1);
        } else {
          w.int64(t.export().id() & 0xffffffffL).int64(0);
        }
      }
      case FATTR4_LEASE_TIME -> w.int32((int) leaseSeconds);
      case FATTR4_RDATTR_ERROR -> w.int32(NFS4_OK);
      case FATTR4_FILEHANDLE -> w.opaque(t.fh());
      case FATTR4_FILEID -> w.int64(t.fileid());
      case FATTR4_FILES_AVAIL, FATTR4_FILES_FREE -> w.int64(st.freeFiles());
      case FATTR4_FILES_TOTAL -> w.int64(st.totalFiles());
      case FATTR4_MAXFILESIZE -> w.int64(MAX_FILE_SIZE);
      case FATTR4_MAXLINK -> w.int32(1);
      case FATTR4_MAXNAME -> w.int32(255);
      case FATTR4_MAXREAD, FATTR4_MAXWRITE -> w.int64(MAX_IO);
      case FATTR4_MODE -> w.int32(a.mode() & 07777);
      case FATTR4_NUMLINKS -> w.int32(a.nlink());
      case FATTR4_OWNER -> w.string(Integer.toUnsignedString(a.uid()));
      case FATTR4_OWNER_GROUP -> w.string(Integer.toUnsignedString(a.gid()));
      case FATTR4_RAWDEV -> rawdev(w, a);
      case FATTR4_SPACE_AVAIL, FATTR4_SPACE_FREE -> w.int64(st.freeBlocks() * st.blockSize());
      case FATTR4_SPACE_TOTAL -> w.int64(st.totalBlocks() * st.blockSize());
      case FATTR4_SPACE_USED -> w.int64(a.blocks() * 512);
      case FATTR4_TIME_ACCESS -> time(w, a.atime());
      case FATTR4_TIME_DELTA -> w.int64(0).int32(1);
      case FATTR4_TIME_METADATA -> time(w, a.ctime());
      case FATTR4_TIME_MODIFY -> time(w, a.mtime());
      case FATTR4_MOUNTED_ON_FILEID -> w.int64(fhs.mountedOnFileid(t));
      case FATTR4_SUPPATTR_EXCLCREAT -> EXCLCREAT.encode(w);
      default -> throw new IllegalStateException("attribute " + attr + " in SUPPORTED without an encoder");
    }
  }

  static int type(FileType t) {
    return switch (t) {
      case REGULAR -> NF4REG;
      case DIRECTORY -> NF4DIR;
      case SYMLINK -> NF4LNK;
      case FIFO -> NF4FIFO;
      case CHARACTER_DEVICE -> NF4CHR;
      case BLOCK_DEVICE -> NF4BLK;
      case SOCKET -> NF4SOCK;
    };
  }

  /** specdata4 of a device: glibc's major()/minor() of st_rdev (as v3's fattr3.rdev), else 0, 0. */
  private static void rawdev(XdrWriter w, FileAttr a) {
    long d = a.rdev();
    if (!a.type().device() || d == 0) {
      w.int32(0).int32(0);
      return;
    }
    w.int32((int) (((d >>> 32) & 0xfffff000L) | ((d >>> 8) & 0xfffL)));
    w.int32((int) (((d >>> 12) & 0xffffff00L) | (d & 0xffL)));
  }

  private static void time(XdrWriter w, Instant t) {
    w.int64(t.getEpochSecond()).int32(t.getNano());
  }

  /**
   * The settable attributes of a client's fattr4 (SETATTR obj_attributes, CREATE and OPEN createattrs).
   *
   * @throws Nfs4Exception ATTRNOTSUPP for an attribute this server does not support (RFC 8881 §18.30.3), INVAL for a
   *     read-only one, a mode over 07777 is masked, a time with nseconds over 999,999,999 INVAL, BADOWNER for an
   *     owner or group that is not a decimal number, BADXDR when the values do not decode to exactly attr_vals
   */
  public static Sattr4 decodeSet(fattr4 f) {
    bitmap4 m = f.attrmask();
    if (!m.minus(SUPPORTED).isEmpty()) {
      throw new Nfs4Exception(NFS4ERR_ATTRNOTSUPP, "unsupported attributes " + m.minus(SUPPORTED));
    }
    if (!m.minus(SETTABLE).isEmpty()) {
      throw new Nfs4Exception(NFS4ERR_INVAL, "read-only attributes " + m.minus(SETTABLE) + " to set");
    }
    try {
      return Xdrs.fromBytes(f.attrVals(), r -> decodeSet(m, r));
    } catch (XdrException e) {
      throw new Nfs4Exception(NFS4ERR_BADXDR, "attr_vals: " + e.getMessage());
    }
  }

  private static Sattr4 decodeSet(bitmap4 m, XdrReader r) {
    Integer mode = null;
    Integer uid = null;
    Integer gid = null;
    Long size = null;
    int atimeHow = -1;
    int mtimeHow = -1;
    Instant atime = null;
    Instant mtime = null;
    for (int n = m.next(0); n >= 0; n = m.next(n + 1)) {
      switch (n) {
        case FATTR4_SIZE -> size = r.int64();
        case FATTR4_MODE -> mode = r.int32() & 07777;
        case FATTR4_OWNER -> uid = owner(r);
        case FATTR4_OWNER_GROUP -> gid = owner(r);
        case FATTR4_TIME_ACCESS_SET -> {
          atimeHow = r.enumValue(SET_TO_SERVER_TIME4, SET_TO_CLIENT_TIME4);
          atime = atimeHow == SET_TO_CLIENT_TIME4 ? nfstime(r) : null;
        }
        case FATTR4_TIME_MODIFY_SET -> {
          mtimeHow = r.enumValue(SET_TO_SERVER_TIME4, SET_TO_CLIENT_TIME4);
          mtime = mtimeHow == SET_TO_CLIENT_TIME4 ? nfstime(r) : null;
        }
        default -> throw new IllegalStateException("attribute " + n + " in SETTABLE without a decoder");
      }
    }
    if (size != null && size < 0) {
      throw new Nfs4Exception(NFS4ERR_FBIG, "size " + Long.toUnsignedString(size));
    }
    return new Sattr4(mode, uid, gid, size, atimeHow, atime, mtimeHow, mtime, m);
  }

  /** An owner or owner_group string: a decimal uid/gid (AUTH_SYS without id mapping). */
  private static int owner(XdrReader r) {
    byte[] b = r.opaque(NFS4_OPAQUE_LIMIT);
    String s = new String(b, StandardCharsets.UTF_8);
    if (s.isEmpty() || s.length() > 10 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new Nfs4Exception(NFS4ERR_BADOWNER, "owner '" + s + "' is not a number");
    }
    long v = Long.parseLong(s);
    if (v > 0xffffffffL) {
      throw new Nfs4Exception(NFS4ERR_BADOWNER, "owner " + s + " over 2^32-1");
    }
    return (int) v;
  }

  private static Instant nfstime(XdrReader r) {
    long sec = r.int64();
    long nsec = r.uint32();
    if (nsec > 999_999_999L) {
      throw new Nfs4Exception(NFS4ERR_INVAL, "nseconds " + nsec);
    }
    try {
      return Instant.ofEpochSecond(sec, nsec);
    } catch (java.time.DateTimeException e) {
      throw new Nfs4Exception(NFS4ERR_INVAL, "time of " + sec + " seconds");
    }
  }
}
