package io.ossgw.nfs.v4;

import io.ossgw.core.namespace.VPaths;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * component4 (RFC 8881 §3.3.4, utf8str_cs): one name of a path, as LOOKUP, SECINFO, CREATE, REMOVE, RENAME, LINK and
 * OPEN take it. Decoded as raw bytes (up to {@link #READ_LIMIT}, so a long name is NFS4ERR_NAMETOOLONG rather than
 * undecodable) and checked by {@link #check} when the operation runs.
 */
public final class Component4 {
  /** Bytes read for a component before the XDR is called undecodable. */
  public static final int READ_LIMIT = Nfs4.NFS4_OPAQUE_LIMIT;

  private Component4() {}

  /** Reads a component4's bytes. */
  public static byte[] read(XdrReader r) {
    return r.opaque(READ_LIMIT);
  }

  /**
   * The name, checked as RFC 8881 §18.15.3 (LOOKUP) lists and Linux knfsd's check_filename applies: empty NFS4ERR_INVAL,
   * not UTF-8 NFS4ERR_INVAL (§14.3), over 255 bytes NFS4ERR_NAMETOOLONG, "." or ".." or containing '/' or NUL
   * NFS4ERR_BADNAME.
   *
   * @throws Nfs4Exception as above
   */
  public static String check(byte[] raw) {
    if (raw.length == 0) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "empty name");
    }
    if (raw.length > VPaths.NAME_MAX) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_NAMETOOLONG, "name of " + raw.length + " bytes");
    }
    String name;
    try {
      name = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw)).toString();
    } catch (CharacterCodingException e) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "name is not UTF-8");
    }
    if (name.equals(".") || name.equals("..") || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BADNAME, "name '" + name + "'");
    }
    return name;
  }
}
