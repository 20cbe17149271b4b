package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.SetAttr;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.bitmap4;
import java.time.Instant;

/**
 * The settable attributes of a decoded fattr4 (SETATTR, CREATE and OPEN createattrs; {@link Fattr4#decodeSet}): null
 * fields are not set. Times keep how they are set (RFC 8881 §3.3.2 settime4), since "now" and a client's time need
 * different permissions (utimes(NULL) versus utimes(times)).
 *
 * @param mode permission bits (07777) or null
 * @param uid owner (from a numeric owner string) or null
 * @param gid group (from a numeric owner_group string) or null
 * @param size bytes, or null
 * @param atimeHow -1 (not set), {@link Nfs4#SET_TO_SERVER_TIME4} or {@link Nfs4#SET_TO_CLIENT_TIME4}
 * @param atime the client's time with SET_TO_CLIENT_TIME4, else null
 * @param mtimeHow as {@code atimeHow}, for time_modify_set
 * @param mtime as {@code atime}
 * @param attrsset the attributes present (SETATTR4res.attrsset on success)
 */
public record Sattr4(Integer mode, Integer uid, Integer gid, Long size, int atimeHow, Instant atime, int mtimeHow,
    Instant mtime, bitmap4 attrsset) {
  /** Nothing set. */
  public static final Sattr4 NONE = new Sattr4(null, null, null, null, -1, null, -1, null, bitmap4.EMPTY);

  /** The engine's setattr changes, "set to server time" becoming {@code now}. */
  public SetAttr toSetAttr(Instant now) {
    return new SetAttr(mode, uid, gid, size, time(atimeHow, atime, now), time(mtimeHow, mtime, now));
  }

  private static Instant time(int how, Instant t, Instant now) {
    return how == Nfs4.SET_TO_SERVER_TIME4 ? now : how == Nfs4.SET_TO_CLIENT_TIME4 ? t : null;
  }

  /** Whether anything is set. */
  public boolean isEmpty() {
    return attrsset.isEmpty();
  }
}
