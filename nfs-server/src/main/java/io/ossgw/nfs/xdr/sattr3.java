package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §2.6 sattr3: the attributes SETATTR, CREATE, MKDIR, SYMLINK and MKNOD set. The set_mode3, set_uid3,
 * set_gid3 and set_size3 unions are nullable fields; set_atime and set_mtime are a time_how plus the client's time.
 *
 * @param mode new permission bits, or null
 * @param uid new owner, or null
 * @param gid new group, or null
 * @param size new size, or null
 * @param setAtime time_how: {@link Nfs3#DONT_CHANGE}, {@link Nfs3#SET_TO_SERVER_TIME}, {@link Nfs3#SET_TO_CLIENT_TIME}
 * @param atime the client's time when {@code setAtime} is SET_TO_CLIENT_TIME, else null
 * @param setMtime time_how for mtime
 * @param mtime the client's time when {@code setMtime} is SET_TO_CLIENT_TIME, else null
 */
public record sattr3(Integer mode, Integer uid, Integer gid, Long size, int setAtime, nfstime3 atime, int setMtime,
    nfstime3 mtime) implements XdrType {

  /** Changes nothing. */
  public static final sattr3 NONE = new sattr3(null, null, null, null, Nfs3.DONT_CHANGE, null, Nfs3.DONT_CHANGE, null);

  public sattr3 {
    if ((setAtime == Nfs3.SET_TO_CLIENT_TIME) != (atime != null) || (setMtime == Nfs3.SET_TO_CLIENT_TIME) != (mtime != null)) {
      throw new IllegalArgumentException("a client time goes with SET_TO_CLIENT_TIME only");
    }
  }

  public static sattr3 decode(XdrReader r) {
    Integer mode = r.bool() ? r.int32() : null;
    Integer uid = r.bool() ? r.int32() : null;
    Integer gid = r.bool() ? r.int32() : null;
    Long size = r.bool() ? r.int64() : null;
    int setAtime = r.enumValue(Nfs3.DONT_CHANGE, Nfs3.SET_TO_CLIENT_TIME);
    nfstime3 atime = setAtime == Nfs3.SET_TO_CLIENT_TIME ? nfstime3.decode(r) : null;
    int setMtime = r.enumValue(Nfs3.DONT_CHANGE, Nfs3.SET_TO_CLIENT_TIME);
    nfstime3 mtime = setMtime == Nfs3.SET_TO_CLIENT_TIME ? nfstime3.decode(r) : null;
    return new sattr3(mode, uid, gid, size, setAtime, atime, setMtime, mtime);
  }

  @Override
  public void encode(XdrWriter w) {
    w.bool(mode != null);
    if (mode != null) {
      w.int32(mode);
    }
    w.bool(uid != null);
    if (uid != null) {
      w.int32(uid);
    }
    w.bool(gid != null);
    if (gid != null) {
      w.int32(gid);
    }
    w.bool(size != null);
    if (size != null) {
      w.int64(size);
    }
    w.int32(setAtime);
    if (atime != null) {
      atime.encode(w);
    }
    w.int32(setMtime);
    if (mtime != null) {
      mtime.encode(w);
    }
  }
}
