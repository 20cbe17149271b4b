package io.ossgw.nfs.v4.xdr;

/**
 * Constants of NFSv4.1 (RFC 8881 and its XDR, RFC 8882 section "nfs4_prot.x"): every operation number and nfsstat4
 * code of minor version 1, attribute numbers, flags and protocol limits. Names are the RFC's.
 */
public final class Nfs4 {
  private Nfs4() {}

  public static final int PROGRAM = 100003;
  public static final int VERSION = 4;
  public static final int NFSPROC4_NULL = 0;
  public static final int NFSPROC4_COMPOUND = 1;

  // nfs_opnum4 (RFC 8881 §16.2.1 / §18); 3..39 are the v4.0 operations, 40..58 new in 4.1.
  public static final int OP_ACCESS = 3;
  public static final int OP_CLOSE = 4;
  public static final int OP_COMMIT = 5;
  public static final int OP_CREATE = 6;
  public static final int OP_DELEGPURGE = 7;
  public static final int OP_DELEGRETURN = 8;
  public static final int OP_GETATTR = 9;
  public static final int OP_GETFH = 10;
  public static final int OP_LINK = 11;
  public static final int OP_LOCK = 12;
  public static final int OP_LOCKT = 13;
  public static final int OP_LOCKU = 14;
  public static final int OP_LOOKUP = 15;
  public static final int OP_LOOKUPP = 16;
  public static final int OP_NVERIFY = 17;
  public static final int OP_OPEN = 18;
  public static final int OP_OPENATTR = 19;
  public static final int OP_OPEN_CONFIRM = 20;
  public static final int OP_OPEN_DOWNGRADE = 21;
  public static final int OP_PUTFH = 22;
  public static final int OP_PUTPUBFH = 23;
  public static final int OP_PUTROOTFH = 24;
  public static final int OP_READ = 25;
  public static final int OP_READDIR = 26;
  public static final int OP_READLINK = 27;
  public static final int OP_REMOVE = 28;
  public static final int OP_RENAME = 29;
  public static final int OP_RENEW = 30;
  public static final int OP_RESTOREFH = 31;
  public static final int OP_SAVEFH = 32;
  public static final int OP_SECINFO = 33;
  public static final int OP_SETATTR = 34;
  public static final int OP_SETCLIENTID = 35;
  public static final int OP_SETCLIENTID_CONFIRM = 36;
  public static final int OP_VERIFY = 37;
  public static final int OP_WRITE = 38;
  public static final int OP_RELEASE_LOCKOWNER = 39;
  public static final int OP_BACKCHANNEL_CTL = 40;
  public static final int OP_BIND_CONN_TO_SESSION = 41;
  public static final int OP_EXCHANGE_ID = 42;
  public static final int OP_CREATE_SESSION = 43;
  public static final int OP_DESTROY_SESSION = 44;
  public static final int OP_FREE_STATEID = 45;
  public static final int OP_GET_DIR_DELEGATION = 46;
  public static final int OP_GETDEVICEINFO = 47;
  public static final int OP_GETDEVICELIST = 48;
  public static final int OP_LAYOUTCOMMIT = 49;
  public static final int OP_LAYOUTGET = 50;
  public static final int OP_LAYOUTRETURN = 51;
  public static final int OP_SECINFO_NO_NAME = 52;
  public static final int OP_SEQUENCE = 53;
  public static final int OP_SET_SSV = 54;
  public static final int OP_TEST_STATEID = 55;
  public static final int OP_WANT_DELEGATION = 56;
  public static final int OP_DESTROY_CLIENTID = 57;
  public static final int OP_RECLAIM_COMPLETE = 58;
  /** The highest operation number of minor version 1; anything above (4.2's 59..71 included) is OP_ILLEGAL. */
  public static final int OP_MAX_V41 = 58;
  public static final int OP_ILLEGAL = 10044;

  // nfsstat4 (RFC 8881 §15.1)
  public static final int NFS4_OK = 0;
  public static final int NFS4ERR_PERM = 1;
  public static final int NFS4ERR_NOENT = 2;
  public static final int NFS4ERR_IO = 5;
  public static final int NFS4ERR_NXIO = 6;
  public static final int NFS4ERR_ACCESS = 13;
  public static final int NFS4ERR_EXIST = 17;
  public static final int NFS4ERR_XDEV = 18;
  public static final int NFS4ERR_NOTDIR = 20;
  public static final int NFS4ERR_ISDIR = 21;
  public static final int NFS4ERR_INVAL = 22;
  public static final int NFS4ERR_FBIG = 27;
  public static final int NFS4ERR_NOSPC = 28;
  public static final int NFS4ERR_ROFS = 30;
  public static final int NFS4ERR_MLINK = 31;
  public static final int NFS4ERR_NAMETOOLONG = 63;
  public static final int NFS4ERR_NOTEMPTY = 66;
  public static final int NFS4ERR_DQUOT = 69;
  public static final int NFS4ERR_STALE = 70;
  public static final int NFS4ERR_BADHANDLE = 10001;
  public static final int NFS4ERR_BAD_COOKIE = 10003;
  public static final int NFS4ERR_NOTSUPP = 10004;
  public static final int NFS4ERR_TOOSMALL = 10005;
  public static final int NFS4ERR_SERVERFAULT = 10006;
  public static final int NFS4ERR_BADTYPE = 10007;
  public static final int NFS4ERR_DELAY = 10008;
  public static final int NFS4ERR_SAME = 10009;
  public static final int NFS4ERR_DENIED = 10010;
  public static final int NFS4ERR_EXPIRED = 10011;
  public static final int NFS4ERR_LOCKED = 10012;
  public static final int NFS4ERR_GRACE = 10013;
  public static final int NFS4ERR_FHEXPIRED = 10014;
  public static final int NFS4ERR_SHARE_DENIED = 10015;
  public static final int NFS4ERR_WRONGSEC = 10016;
  public static final int NFS4ERR_CLID_INUSE = 10017;
  public static final int NFS4ERR_RESOURCE = 10018;
  public static final int NFS4ERR_MOVED = 10019;
  public static final int NFS4ERR_NOFILEHANDLE = 10020;
  public static final int NFS4ERR_MINOR_VERS_MISMATCH = 10021;
  public static final int NFS4ERR_STALE_CLIENTID = 10022;
  public static final int NFS4ERR_STALE_STATEID = 10023;
  public static final int NFS4ERR_OLD_STATEID = 10024;
  public static final int NFS4ERR_BAD_STATEID = 10025;
  public static final int NFS4ERR_BAD_SEQID = 10026;
  public static final int NFS4ERR_NOT_SAME = 10027;
  public static final int NFS4ERR_LOCK_RANGE = 10028;
  public static final int NFS4ERR_SYMLINK = 10029;
  public static final int NFS4ERR_RESTOREFH = 10030;
  public static final int NFS4ERR_LEASE_MOVED = 10031;
  public static final int NFS4ERR_ATTRNOTSUPP = 10032;
  public static final int NFS4ERR_NO_GRACE = 10033;
  public static final int NFS4ERR_RECLAIM_BAD = 10034;
  public static final int NFS4ERR_RECLAIM_CONFLICT = 10035;
  public static final int NFS4ERR_BADXDR = 10036;
  public static final int NFS4ERR_LOCKS_HELD = 10037;
  public static final int NFS4ERR_OPENMODE = 10038;
  public static final int NFS4ERR_BADOWNER = 10039;
  public static final int NFS4ERR_BADCHAR = 10040;
  public static final int NFS4ERR_BADNAME = 10041;
  public static final int NFS4ERR_BAD_RANGE = 10042;
  public static final int NFS4ERR_LOCK_NOTSUPP = 10043;
  public static final int NFS4ERR_OP_ILLEGAL = 10044;
  public static final int NFS4ERR_DEADLOCK = 10045;
  public static final int NFS4ERR_FILE_OPEN = 10046;
  public static final int NFS4ERR_ADMIN_REVOKED = 10047;
  public static final int NFS4ERR_CB_PATH_DOWN = 10048;
  public static final int NFS4ERR_BADIOMODE = 10049;
  public static final int NFS4ERR_BADLAYOUT = 10050;
  public static final int NFS4ERR_BAD_SESSION_DIGEST = 10051;
  public static final int NFS4ERR_BADSESSION = 10052;
  public static final int NFS4ERR_BADSLOT = 10053;
  public static final int NFS4ERR_COMPLETE_ALREADY = 10054;
  public static final int NFS4ERR_CONN_NOT_BOUND_TO_SESSION = 10055;
  public static final int NFS4ERR_DELEG_ALREADY_WANTED = 10056;
  public static final int NFS4ERR_BACK_CHAN_BUSY = 10057;
  public static final int NFS4ERR_LAYOUTTRYLATER = 10058;
  public static final int NFS4ERR_LAYOUTUNAVAILABLE = 10059;
  public static final int NFS4ERR_NOMATCHING_LAYOUT = 10060;
  public static final int NFS4ERR_RECALLCONFLICT = 10061;
  public static final int NFS4ERR_UNKNOWN_LAYOUTTYPE = 10062;
  public static final int NFS4ERR_SEQ_MISORDERED = 10063;
  public static final int NFS4ERR_SEQUENCE_POS = 10064;
  public static final int NFS4ERR_REQ_TOO_BIG = 10065;
  public static final int NFS4ERR_REP_TOO_BIG = 10066;
  public static final int NFS4ERR_REP_TOO_BIG_TO_CACHE = 10067;
  public static final int NFS4ERR_RETRY_UNCACHED_REP = 10068;
  public static final int NFS4ERR_UNSAFE_COMPOUND = 10069;
  public static final int NFS4ERR_TOO_MANY_OPS = 10070;
  public static final int NFS4ERR_OP_NOT_IN_SESSION = 10071;
  public static final int NFS4ERR_HASH_ALG_UNSUPP = 10072;
  public static final int NFS4ERR_CLIENTID_BUSY = 10074;
  public static final int NFS4ERR_PNFS_IO_HOLE = 10075;
  public static final int NFS4ERR_SEQ_FALSE_RETRY = 10076;
  public static final int NFS4ERR_BAD_HIGH_SLOT = 10077;
  public static final int NFS4ERR_DEADSESSION = 10078;
  public static final int NFS4ERR_ENCR_ALG_UNSUPP = 10079;
  public static final int NFS4ERR_PNFS_NO_LAYOUT = 10080;
  public static final int NFS4ERR_NOT_ONLY_OP = 10081;
  public static final int NFS4ERR_WRONG_CRED = 10082;
  public static final int NFS4ERR_WRONG_TYPE = 10083;
  public static final int NFS4ERR_DIRDELEG_UNAVAIL = 10084;
  public static final int NFS4ERR_REJECT_DELEG = 10085;
  public static final int NFS4ERR_RETURNCONFLICT = 10086;
  public static final int NFS4ERR_DELEG_REVOKED = 10087;

  // EXCHANGE_ID flags (RFC 8881 §18.35.1)
  public static final int EXCHGID4_FLAG_SUPP_MOVED_REFER = 0x1;
  public static final int EXCHGID4_FLAG_SUPP_MOVED_MIGR = 0x2;
  public static final int EXCHGID4_FLAG_BIND_PRINC_STATEID = 0x100;
  public static final int EXCHGID4_FLAG_USE_NON_PNFS = 0x10000;
  public static final int EXCHGID4_FLAG_MASK_PNFS = 0x70000;
  public static final int EXCHGID4_FLAG_UPD_CONFIRMED_REC_A = 0x40000000;
  public static final int EXCHGID4_FLAG_CONFIRMED_R = 0x80000000;

  // state_protect_how4
  public static final int SP4_NONE = 0;
  public static final int SP4_MACH_CRED = 1;
  public static final int SP4_SSV = 2;

  // CREATE_SESSION flags (RFC 8881 §18.36.1)
  public static final int CREATE_SESSION4_FLAG_PERSIST = 0x1;
  public static final int CREATE_SESSION4_FLAG_CONN_BACK_CHAN = 0x2;
  public static final int CREATE_SESSION4_FLAG_CONN_RDMA = 0x4;

  // channel_dir_from_client4 / channel_dir_from_server4 (RFC 8881 §18.34.1)
  public static final int CDFC4_FORE = 0x1;
  public static final int CDFC4_BACK = 0x2;
  public static final int CDFC4_FORE_OR_BOTH = 0x3;
  public static final int CDFC4_BACK_OR_BOTH = 0x7;
  public static final int CDFS4_FORE = 0x1;

  // fattr4 attribute numbers (RFC 8881 §5.6-5.8)
  public static final int FATTR4_SUPPORTED_ATTRS = 0;
  public static final int FATTR4_TYPE = 1;
  public static final int FATTR4_FH_EXPIRE_TYPE = 2;
  public static final int FATTR4_CHANGE = 3;
  public static final int FATTR4_SIZE = 4;
  public static final int FATTR4_LINK_SUPPORT = 5;
  public static final int FATTR4_SYMLINK_SUPPORT = 6;
  public static final int FATTR4_NAMED_ATTR = 7;
  public static final int FATTR4_FSID = 8;
  public static final int FATTR4_UNIQUE_HANDLES = 9;
  public static final int FATTR4_LEASE_TIME = 10;
  public static final int FATTR4_RDATTR_ERROR = 11;
  public static final int FATTR4_ACL = 12;
  public static final int FATTR4_ACLSUPPORT = 13;
  public static final int FATTR4_ARCHIVE = 14;
  public static final int FATTR4_CANSETTIME = 15;
  public static final int FATTR4_CASE_INSENSITIVE = 16;
  public static final int FATTR4_CASE_PRESERVING = 17;
  public static final int FATTR4_CHOWN_RESTRICTED = 18;
  public static final int FATTR4_FILEHANDLE = 19;
  public static final int FATTR4_FILEID = 20;
  public static final int FATTR4_FILES_AVAIL = 21;
  public static final int FATTR4_FILES_FREE = 22;
  public static final int FATTR4_FILES_TOTAL = 23;
  public static final int FATTR4_FS_LOCATIONS = 24;
  public static final int FATTR4_HIDDEN = 25;
  public static final int FATTR4_HOMOGENEOUS = 26;
  public static final int FATTR4_MAXFILESIZE = 27;
  public static final int FATTR4_MAXLINK = 28;
  public static final int FATTR4_MAXNAME = 29;
  public static final int FATTR4_MAXREAD = 30;
  public static final int FATTR4_MAXWRITE = 31;
  public static final int FATTR4_MIMETYPE = 32;
  public static final int FATTR4_MODE = 33;
  public static final int FATTR4_NO_TRUNC = 34;
  public static final int FATTR4_NUMLINKS = 35;
  public static final int FATTR4_OWNER = 36;
  public static final int FATTR4_OWNER_GROUP = 37;
  public static final int FATTR4_QUOTA_AVAIL_HARD = 38;
  public static final int FATTR4_QUOTA_AVAIL_SOFT = 39;
  public static final int FATTR4_QUOTA_USED = 40;
  public static final int FATTR4_RAWDEV = 41;
  public static final int FATTR4_SPACE_AVAIL = 42;
  public static final int FATTR4_SPACE_FREE = 43;
  public static final int FATTR4_SPACE_TOTAL = 44;
  public static final int FATTR4_SPACE_USED = 45;
  public static final int FATTR4_SYSTEM = 46;
  public static final int FATTR4_TIME_ACCESS = 47;
  public static final int FATTR4_TIME_ACCESS_SET = 48;
  public static final int FATTR4_TIME_BACKUP = 49;
  public static final int FATTR4_TIME_CREATE = 50;
  public static final int FATTR4_TIME_DELTA = 51;
  public static final int FATTR4_TIME_METADATA = 52;
  public static final int FATTR4_TIME_MODIFY = 53;
  public static final int FATTR4_TIME_MODIFY_SET = 54;
  public static final int FATTR4_MOUNTED_ON_FILEID = 55;
  public static final int FATTR4_DIR_NOTIF_DELAY = 56;
  public static final int FATTR4_DIRENT_NOTIF_DELAY = 57;
  public static final int FATTR4_DACL = 58;
  public static final int FATTR4_SACL = 59;
  public static final int FATTR4_CHANGE_POLICY = 60;
  public static final int FATTR4_FS_STATUS = 61;
  public static final int FATTR4_FS_LAYOUT_TYPES = 62;
  public static final int FATTR4_LAYOUT_HINT = 63;
  public static final int FATTR4_LAYOUT_TYPES = 64;
  public static final int FATTR4_LAYOUT_BLKSIZE = 65;
  public static final int FATTR4_LAYOUT_ALIGNMENT = 66;
  public static final int FATTR4_FS_LOCATIONS_INFO = 67;
  public static final int FATTR4_MDSTHRESHOLD = 68;
  public static final int FATTR4_RETENTION_GET = 69;
  public static final int FATTR4_RETENTION_SET = 70;
  public static final int FATTR4_RETENTEVT_GET = 71;
  public static final int FATTR4_RETENTEVT_SET = 72;
  public static final int FATTR4_RETENTION_HOLD = 73;
  public static final int FATTR4_MODE_SET_MASKED = 74;
  public static final int FATTR4_SUPPATTR_EXCLCREAT = 75;
  public static final int FATTR4_FS_CHARSET_CAP = 76;

  // nfs_ftype4 (RFC 8881 §3.3.9)
  public static final int NF4REG = 1;
  public static final int NF4DIR = 2;
  public static final int NF4BLK = 3;
  public static final int NF4CHR = 4;
  public static final int NF4LNK = 5;
  public static final int NF4SOCK = 6;
  public static final int NF4FIFO = 7;
  public static final int NF4ATTRDIR = 8;
  public static final int NF4NAMEDATTR = 9;

  // fh_expire_type (RFC 8881 §5.8.1.3)
  public static final int FH4_PERSISTENT = 0x0;

  // ACCESS bits (RFC 8881 §18.1)
  public static final int ACCESS4_READ = 0x1;
  public static final int ACCESS4_LOOKUP = 0x2;
  public static final int ACCESS4_MODIFY = 0x4;
  public static final int ACCESS4_EXTEND = 0x8;
  public static final int ACCESS4_DELETE = 0x10;
  public static final int ACCESS4_EXECUTE = 0x20;

  // time_how4 (RFC 8881 §3.3.2.1, settime4)
  public static final int SET_TO_SERVER_TIME4 = 0;
  public static final int SET_TO_CLIENT_TIME4 = 1;

  // stable_how4 (RFC 8881 §18.32)
  public static final int UNSTABLE4 = 0;
  public static final int DATA_SYNC4 = 1;
  public static final int FILE_SYNC4 = 2;

  // OPEN (RFC 8881 §18.16): share access / deny, opentype, createmode, claim, delegation, result flags
  public static final int OPEN4_SHARE_ACCESS_READ = 0x1;
  public static final int OPEN4_SHARE_ACCESS_WRITE = 0x2;
  public static final int OPEN4_SHARE_ACCESS_BOTH = 0x3;
  public static final int OPEN4_SHARE_DENY_NONE = 0x0;
  public static final int OPEN4_SHARE_DENY_READ = 0x1;
  public static final int OPEN4_SHARE_DENY_WRITE = 0x2;
  public static final int OPEN4_SHARE_DENY_BOTH = 0x3;
  public static final int OPEN4_SHARE_ACCESS_WANT_DELEG_MASK = 0xFF00;
  public static final int OPEN4_SHARE_ACCESS_WANT_NO_DELEG = 0x0400;
  public static final int OPEN4_NOCREATE = 0;
  public static final int OPEN4_CREATE = 1;
  public static final int UNCHECKED4 = 0;
  public static final int GUARDED4 = 1;
  public static final int EXCLUSIVE4 = 2;
  public static final int EXCLUSIVE4_1 = 3;
  public static final int CLAIM_NULL = 0;
  public static final int CLAIM_PREVIOUS = 1;
  public static final int CLAIM_DELEGATE_CUR = 2;
  public static final int CLAIM_DELEGATE_PREV = 3;
  public static final int CLAIM_FH = 4;
  public static final int CLAIM_DELEG_CUR_FH = 5;
  public static final int CLAIM_DELEG_PREV_FH = 6;
  public static final int OPEN_DELEGATE_NONE = 0;
  public static final int OPEN_DELEGATE_READ = 1;
  public static final int OPEN_DELEGATE_WRITE = 2;
  public static final int OPEN_DELEGATE_NONE_EXT = 3;
  public static final int WND4_NOT_WANTED = 0;
  public static final int OPEN4_RESULT_CONFIRM = 0x2;
  public static final int OPEN4_RESULT_LOCKTYPE_POSIX = 0x4;
  public static final int OPEN4_RESULT_PRESERVE_UNLINKED = 0x8;
  public static final int OPEN4_RESULT_MAY_NOTIFY_LOCK = 0x20;

  // nfs_lock_type4 (RFC 8881 §18.10)
  public static final int READ_LT = 1;
  public static final int WRITE_LT = 2;
  public static final int READW_LT = 3;
  public static final int WRITEW_LT = 4;

  // sec flavors (RFC 8881 §18.29, RFC 5531)
  public static final int AUTH_NONE = 0;
  public static final int AUTH_SYS = 1;
  public static final int RPCSEC_GSS = 6;
  // secinfo_style4 (RFC 8881 §18.45)
  public static final int SECINFO_STYLE4_CURRENT_FH = 0;
  public static final int SECINFO_STYLE4_PARENT = 1;

  // Sizes (RFC 8881 §2.2 / the XDR constants)
  public static final int NFS4_OPAQUE_LIMIT = 1024;
  public static final int NFS4_VERIFIER_SIZE = 8;
  public static final int NFS4_OTHER_SIZE = 12;
  public static final int NFS4_FHSIZE = 128;
  public static final int NFS4_SESSIONID_SIZE = 16;
  /** Bound on the COMPOUND tag (utf8str_cs has no RFC limit; Linux sends an empty one). */
  public static final int TAG_LIMIT = 1024;
  /** Bound on the unbounded arrays this package decodes (bitmaps, sec_oid lists, callback security parameters). */
  public static final int ARRAY_LIMIT = 16;
}
