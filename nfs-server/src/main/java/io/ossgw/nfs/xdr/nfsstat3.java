package io.ossgw.nfs.xdr;

/** RFC 1813 §2.6 nfsstat3: the status of every NFSv3 result. */
public final class nfsstat3 {
  private nfsstat3() {}

  public static final int NFS3_OK = 0;
  public static final int NFS3ERR_PERM = 1;
  public static final int NFS3ERR_NOENT = 2;
  public static final int NFS3ERR_IO = 5;
  public static final int NFS3ERR_NXIO = 6;
  public static final int NFS3ERR_ACCES = 13;
  public static final int NFS3ERR_EXIST = 17;
  public static final int NFS3ERR_XDEV = 18;
  public static final int NFS3ERR_NODEV = 19;
  public static final int NFS3ERR_NOTDIR = 20;
  public static final int NFS3ERR_ISDIR = 21;
  public static final int NFS3ERR_INVAL = 22;
  public static final int NFS3ERR_FBIG = 27;
  public static final int NFS3ERR_NOSPC = 28;
  public static final int NFS3ERR_ROFS = 30;
  public static final int NFS3ERR_MLINK = 31;
  public static final int NFS3ERR_NAMETOOLONG = 63;
  public static final int NFS3ERR_NOTEMPTY = 66;
  public static final int NFS3ERR_DQUOT = 69;
  public static final int NFS3ERR_STALE = 70;
  public static final int NFS3ERR_REMOTE = 71;
  public static final int NFS3ERR_BADHANDLE = 10001;
  public static final int NFS3ERR_NOT_SYNC = 10002;
  public static final int NFS3ERR_BAD_COOKIE = 10003;
  public static final int NFS3ERR_NOTSUPP = 10004;
  public static final int NFS3ERR_TOOSMALL = 10005;
  public static final int NFS3ERR_SERVERFAULT = 10006;
  public static final int NFS3ERR_BADTYPE = 10007;
  public static final int NFS3ERR_JUKEBOX = 10008;

  /** The RFC name of a status, for logs and test messages. */
  public static String name(int status) {
    return switch (status) {
      case NFS3_OK -> "NFS3_OK";
      case NFS3ERR_PERM -> "NFS3ERR_PERM";
      case NFS3ERR_NOENT -> "NFS3ERR_NOENT";
      case NFS3ERR_IO -> "NFS3ERR_IO";
      case NFS3ERR_NXIO -> "NFS3ERR_NXIO";
      case NFS3ERR_ACCES -> "NFS3ERR_ACCES";
      case NFS3ERR_EXIST -> "NFS3ERR_EXIST";
      case NFS3ERR_XDEV -> "NFS3ERR_XDEV";
      case NFS3ERR_NODEV -> "NFS3ERR_NODEV";
      case NFS3ERR_NOTDIR -> "NFS3ERR_NOTDIR";
      case NFS3ERR_ISDIR -> "NFS3ERR_ISDIR";
      case NFS3ERR_INVAL -> "NFS3ERR_INVAL";
      case NFS3ERR_FBIG -> "NFS3ERR_FBIG";
      case NFS3ERR_NOSPC -> "NFS3ERR_NOSPC";
      case NFS3ERR_ROFS -> "NFS3ERR_ROFS";
      case NFS3ERR_MLINK -> "NFS3ERR_MLINK";
      case NFS3ERR_NAMETOOLONG -> "NFS3ERR_NAMETOOLONG";
      case NFS3ERR_NOTEMPTY -> "NFS3ERR_NOTEMPTY";
      case NFS3ERR_DQUOT -> "NFS3ERR_DQUOT";
      case NFS3ERR_STALE -> "NFS3ERR_STALE";
      case NFS3ERR_REMOTE -> "NFS3ERR_REMOTE";
      case NFS3ERR_BADHANDLE -> "NFS3ERR_BADHANDLE";
      case NFS3ERR_NOT_SYNC -> "NFS3ERR_NOT_SYNC";
      case NFS3ERR_BAD_COOKIE -> "NFS3ERR_BAD_COOKIE";
      case NFS3ERR_NOTSUPP -> "NFS3ERR_NOTSUPP";
      case NFS3ERR_TOOSMALL -> "NFS3ERR_TOOSMALL";
      case NFS3ERR_SERVERFAULT -> "NFS3ERR_SERVERFAULT";
      case NFS3ERR_BADTYPE -> "NFS3ERR_BADTYPE";
      case NFS3ERR_JUKEBOX -> "NFS3ERR_JUKEBOX";
      default -> "nfsstat3(" + status + ")";
    };
  }
}
