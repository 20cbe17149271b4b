package io.ossgw.nfs.xdr;

/**
 * Constants of the NFS version 3 protocol (RFC 1813 §2.2, §2.5, §3.3) and of MOUNT version 3 (RFC 1813 §5).
 * Procedure numbers are those of the RPC procedure field.
 */
public final class Nfs3 {
  private Nfs3() {}

  /** RPC program number of NFS. */
  public static final int NFS_PROGRAM = 100003;
  /** RPC program number of MOUNT. */
  public static final int MOUNT_PROGRAM = 100005;
  /** The only version of either program this server speaks. */
  public static final int VERSION = 3;

  // NFSv3 procedures (RFC 1813 §3.3)
  public static final int NFSPROC3_NULL = 0;
  public static final int NFSPROC3_GETATTR = 1;
  public static final int NFSPROC3_SETATTR = 2;
  public static final int NFSPROC3_LOOKUP = 3;
  public static final int NFSPROC3_ACCESS = 4;
  public static final int NFSPROC3_READLINK = 5;
  public static final int NFSPROC3_READ = 6;
  public static final int NFSPROC3_WRITE = 7;
  public static final int NFSPROC3_CREATE = 8;
  public static final int NFSPROC3_MKDIR = 9;
  public static final int NFSPROC3_SYMLINK = 10;
  public static final int NFSPROC3_MKNOD = 11;
  public static final int NFSPROC3_REMOVE = 12;
  public static final int NFSPROC3_RMDIR = 13;
  public static final int NFSPROC3_RENAME = 14;
  public static final int NFSPROC3_LINK = 15;
  public static final int NFSPROC3_READDIR = 16;
  public static final int NFSPROC3_READDIRPLUS = 17;
  public static final int NFSPROC3_FSSTAT = 18;
  public static final int NFSPROC3_FSINFO = 19;
  public static final int NFSPROC3_PATHCONF = 20;
  public static final int NFSPROC3_COMMIT = 21;

  // MOUNT v3 procedures (RFC 1813 §5.2)
  public static final int MOUNTPROC3_NULL = 0;
  public static final int MOUNTPROC3_MNT = 1;
  public static final int MOUNTPROC3_DUMP = 2;
  public static final int MOUNTPROC3_UMNT = 3;
  public static final int MOUNTPROC3_UMNTALL = 4;
  public static final int MOUNTPROC3_EXPORT = 5;

  // sizes (RFC 1813 §2.4, §5.1.1)
  /** Largest file handle, bytes. */
  public static final int NFS3_FHSIZE = 64;
  public static final int NFS3_COOKIEVERFSIZE = 8;
  public static final int NFS3_CREATEVERFSIZE = 8;
  public static final int NFS3_WRITEVERFSIZE = 8;
  /** MNTPATHLEN: longest MOUNT dirpath, bytes. */
  public static final int MNTPATHLEN = 1024;
  /** MNTNAMLEN: longest MOUNT host/group name, bytes. */
  public static final int MNTNAMLEN = 255;
  /** Longest NFS path (symlink target) this server decodes, bytes: Linux PATH_MAX. */
  public static final int MAX_PATH = 4096;
  /**
   * Longest file name decoded, bytes. RFC 1813 leaves filename3 unbounded; names over 255 bytes are then refused
   * with NFS3ERR_NAMETOOLONG, longer ones as garbage.
   */
  public static final int MAX_NAME_DECODE = 1024;

  // ftype3 (§2.5)
  public static final int NF3REG = 1;
  public static final int NF3DIR = 2;
  public static final int NF3BLK = 3;
  public static final int NF3CHR = 4;
  public static final int NF3LNK = 5;
  public static final int NF3SOCK = 6;
  public static final int NF3FIFO = 7;

  // time_how (§2.5)
  public static final int DONT_CHANGE = 0;
  public static final int SET_TO_SERVER_TIME = 1;
  public static final int SET_TO_CLIENT_TIME = 2;

  // ACCESS3 bits (§3.3.4)
  public static final int ACCESS3_READ = 0x0001;
  public static final int ACCESS3_LOOKUP = 0x0002;
  public static final int ACCESS3_MODIFY = 0x0004;
  public static final int ACCESS3_EXTEND = 0x0008;
  public static final int ACCESS3_DELETE = 0x0010;
  public static final int ACCESS3_EXECUTE = 0x0020;

  // stable_how (§3.3.7)
  public static final int UNSTABLE = 0;
  public static final int DATA_SYNC = 1;
  public static final int FILE_SYNC = 2;

  // createmode3 (§3.3.8)
  public static final int UNCHECKED = 0;
  public static final int GUARDED = 1;
  public static final int EXCLUSIVE = 2;

  // FSINFO properties (§3.3.19)
  public static final int FSF3_LINK = 0x0001;
  public static final int FSF3_SYMLINK = 0x0002;
  public static final int FSF3_HOMOGENEOUS = 0x0008;
  public static final int FSF3_CANSETTIME = 0x0010;

  // mountstat3 (§5.1.5)
  public static final int MNT3_OK = 0;
  public static final int MNT3ERR_PERM = 1;
  public static final int MNT3ERR_NOENT = 2;
  public static final int MNT3ERR_IO = 5;
  public static final int MNT3ERR_ACCES = 13;
  public static final int MNT3ERR_NOTDIR = 20;
  public static final int MNT3ERR_INVAL = 22;
  public static final int MNT3ERR_NAMETOOLONG = 63;
  public static final int MNT3ERR_NOTSUPP = 10004;
  public static final int MNT3ERR_SERVERFAULT = 10006;

  /** RPC auth flavors (RFC 5531 §8.2) offered in mountres3. */
  public static final int AUTH_NONE = 0;
  public static final int AUTH_UNIX = 1;
}
