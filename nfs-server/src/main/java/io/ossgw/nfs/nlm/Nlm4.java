package io.ossgw.nfs.nlm;

/**
 * Constants of the Network Lock Manager protocol version 4 (X/Open "Protocols for Interworking: XNFS" version 3W,
 * chapter 10-14; its XDR is in RFC 1813 appendix II), and of the status monitor NSM version 1 where NLM uses it.
 */
public final class Nlm4 {
  private Nlm4() {}

  public static final int PROGRAM = 100021;
  /** NLM v4 goes with NFSv3 (64-bit offsets); the Linux client uses v1 only with NFSv2 (fs/lockd/clntlock.c). */
  public static final int VERSION = 4;

  public static final int NLMPROC4_NULL = 0;
  public static final int NLMPROC4_TEST = 1;
  public static final int NLMPROC4_LOCK = 2;
  public static final int NLMPROC4_CANCEL = 3;
  public static final int NLMPROC4_UNLOCK = 4;
  public static final int NLMPROC4_GRANTED = 5;
  /** 6..15: the _MSG/_RES asynchronous variants. */
  public static final int NLMPROC4_TEST_MSG = 6;
  public static final int NLMPROC4_GRANTED_RES = 15;
  public static final int NLMPROC4_SHARE = 20;
  public static final int NLMPROC4_UNSHARE = 21;
  public static final int NLMPROC4_NM_LOCK = 22;
  public static final int NLMPROC4_FREE_ALL = 23;

  // nlm4_stats
  public static final int NLM4_GRANTED = 0;
  public static final int NLM4_DENIED = 1;
  public static final int NLM4_DENIED_NOLOCKS = 2;
  public static final int NLM4_BLOCKED = 3;
  public static final int NLM4_DENIED_GRACE_PERIOD = 4;
  public static final int NLM4_DEADLCK = 5;
  public static final int NLM4_ROFS = 6;
  public static final int NLM4_STALE_FH = 7;
  public static final int NLM4_FBIG = 8;
  public static final int NLM4_FAILED = 9;

  /** LM_MAXSTRLEN: caller_name and the share owner's name. */
  public static final int LM_MAXSTRLEN = 1024;
  /** MAXNETOBJ_SZ: cookie, file handle, owner handle. */
  public static final int MAXNETOBJ_SZ = 1024;
  /** SM_MAXSTRLEN: nlm4_notify's name. */
  public static final int SM_MAXSTRLEN = 1024;
}
