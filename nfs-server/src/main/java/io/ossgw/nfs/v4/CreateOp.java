package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileType;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.CREATE4args;
import io.ossgw.nfs.v4.xdr.CREATE4resok;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.bitmap4;
import io.ossgw.nfs.v4.xdr.createtype4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * CREATE (RFC 8881 §18.4): a directory (the engine's mkdir: a {@code dir/} marker), a symbolic link (its target in
 * the object body) or a special file (NF4BLK, NF4CHR, NF4SOCK, NF4FIFO: the engine's mknod, one zero-byte PutObject,
 * as v3 MKNOD) in the current filehandle's directory; on success the new object becomes the current filehandle.
 * Regular files are made by OPEN, so NF4REG (and the named-attribute types) is NFS4ERR_BADTYPE.
 *
 * <p>createattrs: mode with the create itself (default 0755 for directories, 0644 for special files; a symbolic
 * link's mode is always 0777, so a mode given for one is not applied); owner, owner_group and times afterwards with
 * SETATTR's permission rules (one CopyObject, as v3 MKDIR); size is NFS4ERR_INVAL (no CREATE type has data).
 * attrset lists what was applied.
 *
 * <p>Errors, in this order: BADTYPE; the name's ({@link Component4#check}); an empty or non-UTF-8 link target
 * NFS4ERR_INVAL; createattrs' ({@link Fattr4#decodeSet}); the directory's ({@link ChangedDir#of}: ROFS for a pseudo
 * directory or read-only export, NOTDIR, ACCESS); an existing name NFS4ERR_EXIST; the engine's errno.
 */
final class CreateOp implements Operation<CREATE4args> {
  @Override
  public int op() {
    return Nfs4.OP_CREATE;
  }

  @Override
  public CREATE4args decode(XdrReader r) {
    return CREATE4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, CREATE4args a) {
    V4Target t = ctx.current();
    createtype4 ct = a.objtype();
    FileType type = switch (ct.type()) {
      case Nfs4.NF4DIR -> FileType.DIRECTORY;
      case Nfs4.NF4LNK -> FileType.SYMLINK;
      case Nfs4.NF4BLK -> FileType.BLOCK_DEVICE;
      case Nfs4.NF4CHR -> FileType.CHARACTER_DEVICE;
      case Nfs4.NF4SOCK -> FileType.SOCKET;
      case Nfs4.NF4FIFO -> FileType.FIFO;
      default -> throw new Nfs4Exception(Nfs4.NFS4ERR_BADTYPE, "CREATE of type " + ct.type());
    };
    String name = Component4.check(a.objname());
    String linkTarget = type == FileType.SYMLINK ? linkText(ct.linkdata()) : null;
    Sattr4 s = Fattr4.decodeSet(a.createattrs());
    if (s.size() != null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "size given for a " + type);
    }
    ChangedDir d = ChangedDir.of(ctx, t);
    String path = d.child(name);
    boolean modeApplied = s.mode() != null && type != FileType.SYMLINK;
    int mode = modeApplied ? s.mode() & 07777 : type == FileType.DIRECTORY ? 0755 : 0644;
    FileAttr made;
    try {
      made = switch (type) {
        case DIRECTORY -> t.fs().mkdir(path, mode, d.caller);
        case SYMLINK -> t.fs().symlink(linkTarget, path, d.caller);
        default -> t.fs().mknod(path, type, mode, rdev(ct), d.caller);
      };
      Sattr4 rest = new Sattr4(null, s.uid(), s.gid(), null, s.atimeHow(), s.atime(), s.mtimeHow(), s.mtime(),
          s.attrsset().minus(bitmap4.of(Nfs4.FATTR4_MODE)));
      if (!rest.isEmpty()) {
        made = t.fs().setattr(path, SetAttrOp.check(made, rest, d.caller, Instant.now()), null, d.caller);
      }
    } catch (FsException e) {
      throw V4Status.error(e);
    }
    ctx.current = ctx.fhs().target(t.export(), path, made);
    bitmap4 applied = modeApplied ? s.attrsset() : s.attrsset().minus(bitmap4.of(Nfs4.FATTR4_MODE));
    return new CREATE4resok(d.cinfo(), applied);
  }

  /** A symbolic link's target: any non-empty UTF-8 string (stored, never interpreted by the server). */
  private static String linkText(byte[] raw) {
    if (raw.length == 0) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "empty link target");
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw)).toString();
    } catch (CharacterCodingException e) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "link target is not UTF-8");
    }
  }

  /** glibc's {@code makedev(major, minor)} of specdata4 (unsigned numbers), as v3 MKNOD; 0 for non-devices. */
  private static long rdev(createtype4 ct) {
    if (ct.devdata() == null) {
      return 0;
    }
    long ma = ct.devdata().specdata1() & 0xffffffffL;
    long mi = ct.devdata().specdata2() & 0xffffffffL;
    return ((ma & 0xfffff000L) << 32) | ((ma & 0xfffL) << 8) | ((mi & 0xffffff00L) << 12) | (mi & 0xffL);
  }
}
