package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §2.5 fattr3: the attributes of a file system object. Unsigned 32-bit fields are raw int bits.
 *
 * @param type ftype3 ({@link Nfs3#NF3REG}, ...)
 * @param mode permission bits (07777)
 * @param nlink link count
 * @param uid owner
 * @param gid group
 * @param size bytes
 * @param used bytes of storage used
 * @param rdev device numbers
 * @param fsid file system id (the export's id)
 * @param fileid the file's id, stable for its handle
 * @param atime access time
 * @param mtime modification time
 * @param ctime status change time
 */
public record fattr3(int type, int mode, int nlink, int uid, int gid, long size, long used, specdata3 rdev, long fsid,
    long fileid, nfstime3 atime, nfstime3 mtime, nfstime3 ctime) implements XdrType {

  /** Encoded size in bytes. */
  public static final int SIZE = 84;

  public static fattr3 decode(XdrReader r) {
    return new fattr3(r.enumValue(Nfs3.NF3REG, Nfs3.NF3FIFO), r.int32(), r.int32(), r.int32(), r.int32(), r.int64(),
        r.int64(), specdata3.decode(r), r.int64(), r.int64(), nfstime3.decode(r), nfstime3.decode(r),
        nfstime3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(type).int32(mode).int32(nlink).int32(uid).int32(gid).int64(size).int64(used);
    rdev.encode(w);
    w.int64(fsid).int64(fileid);
    atime.encode(w);
    mtime.encode(w);
    ctime.encode(w);
  }

  /** The wcc_attr subset (size, mtime, ctime) of these attributes. */
  public wcc_attr wcc() {
    return new wcc_attr(size, mtime, ctime);
  }
}
