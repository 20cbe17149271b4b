package io.ossgw.nfs.v4.xdr;

/**
 * Constants of NFSv4.1 (RFC 8881 and its XDR, RFC 8882 section "nfs4_prot.x"): operation numbers, the nfsstat4 codes
 * this package uses, flags and protocol limits. Names are the RFC's.
 */
public final class Nfs4 {
  private Nfs4() {}

  public static final int PROGRAM = 100003;
  public static final int VERSION = 4;
  public static final int NFSPROC4_NULL = 0;
  public static final int NFSPROC4_COMPOUND = 1;

  // nfs_opnum4 (RFC 8881 §16.2.1 / §18); 3..39 are the v4.0 operations, 40..58 new in 4.1.
  public static final int OP_ACCESS = 3;
  public static final int OP_RENEW = 30;
  public static final int OP_SETCLIENTID = 35;
  public static final int OP_SETCLIENTID_CONFIRM = 36;
  public static final int OP_RELEASE_LOCKOWNER = 39;
  public static final int OP_BACKCHANNEL_CTL = 40;
  public static final int OP_BIND_CONN_TO_SESSION = 41;
  public static final int OP_EXCHANGE_ID = 42;
  public static final int OP_CREATE_SESSION = 43;
  public static final int OP_DESTROY_SESSION = 44;
  public static final int OP_SEQUENCE = 53;
  public static final int OP_DESTROY_CLIENTID = 57;
  public static final int OP_RECLAIM_COMPLETE = 58;
  /** The highest operation number of minor version 1; anything above (4.2's 59..71 included) is OP_ILLEGAL. */
  public static final int OP_MAX_V41 = 58;
  public static final int OP_ILLEGAL = 10044;

  // nfsstat4 (RFC 8881 §15.1)
  public static final int NFS4_OK = 0;
  public static final int NFS4ERR_PERM = 1;
  public static final int NFS4ERR_NOENT = 2;
  public static final int NFS4ERR_INVAL = 22;
  public static final int NFS4ERR_NOTSUPP = 10004;
  public static final int NFS4ERR_SERVERFAULT = 10006;
  public static final int NFS4ERR_DELAY = 10008;
  public static final int NFS4ERR_CLID_INUSE = 10017;
  public static final int NFS4ERR_MINOR_VERS_MISMATCH = 10021;
  public static final int NFS4ERR_STALE_CLIENTID = 10022;
  public static final int NFS4ERR_NOT_SAME = 10027;
  public static final int NFS4ERR_BADXDR = 10036;
  public static final int NFS4ERR_OP_ILLEGAL = 10044;
  public static final int NFS4ERR_BADSESSION = 10052;
  public static final int NFS4ERR_BADSLOT = 10053;
  public static final int NFS4ERR_COMPLETE_ALREADY = 10054;
  public static final int NFS4ERR_SEQ_MISORDERED = 10063;
  public static final int NFS4ERR_SEQUENCE_POS = 10064;
  public static final int NFS4ERR_REQ_TOO_BIG = 10065;
  public static final int NFS4ERR_RETRY_UNCACHED_REP = 10068;
  public static final int NFS4ERR_TOO_MANY_OPS = 10070;
  public static final int NFS4ERR_OP_NOT_IN_SESSION = 10071;
  public static final int NFS4ERR_CLIENTID_BUSY = 10074;
  public static final int NFS4ERR_SEQ_FALSE_RETRY = 10076;
  public static final int NFS4ERR_NOT_ONLY_OP = 10081;
  public static final int NFS4ERR_ENCR_ALG_UNSUPP = 10079;

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

  // Sizes (RFC 8881 §2.2 / the XDR constants)
  public static final int NFS4_OPAQUE_LIMIT = 1024;
  public static final int NFS4_VERIFIER_SIZE = 8;
  public static final int NFS4_SESSIONID_SIZE = 16;
  /** Bound on the COMPOUND tag (utf8str_cs has no RFC limit; Linux sends an empty one). */
  public static final int TAG_LIMIT = 1024;
  /** Bound on the unbounded arrays this package decodes (bitmaps, sec_oid lists, callback security parameters). */
  public static final int ARRAY_LIMIT = 16;
}
