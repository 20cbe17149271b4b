package io.ossgw.nfs.rpc;

import org.glassfish.grizzly.Buffer;

/**
 * Checks the fixed part of an RPC CALL (RFC 5531 §9) and its credential and verifier before oncrpc4j decodes them:
 * oncrpc4j allocates the machine name and gid list at whatever length the peer sends, and does not check that an
 * AUTH_SYS body is as long as it says. Reads absolute positions only; the buffer is not changed.
 */
final class RpcHeader {
  /** RFC 5531 §8.2: opaque_auth bodies are at most 400 bytes. */
  static final int MAX_AUTH_BODY = 400;
  /** RFC 5531 appendix A: AUTH_SYS has at most 16 supplementary gids and a machine name of at most 255 bytes. */
  static final int MAX_GIDS = 16;
  static final int MAX_MACHINE_NAME = 255;

  static final int AUTH_NONE = 0;
  static final int AUTH_SYS = 1;

  /** What to do with a record. */
  enum Verdict {
    /** A call whose header oncrpc4j may decode. */
    CALL,
    /** A REPLY sent to a server: ignored. */
    IGNORE,
    /** Too short to hold a call header, or not an RPC message: close the connection. */
    CLOSE,
    /** A flavor this server does not accept, or a malformed credential: reject with AUTH_BADCRED. */
    BAD_CRED,
    /** A malformed verifier: reject with AUTH_BADVERF. */
    BAD_VERF
  }

  private RpcHeader() {}

  static Verdict check(Buffer b) {
    int base = b.position();
    int len = b.limit() - base;
    if (len < 8) {
      return Verdict.CLOSE;
    }
    int type = b.getInt(base + 4);
    if (type == 1) {
      return Verdict.IGNORE;
    }
    if (type != 0 || len < 12) {
      return Verdict.CLOSE;
    }
    if (b.getInt(base + 8) != 2) {
      return Verdict.CALL; // oncrpc4j answers RPC_MISMATCH before reading further
    }
    if (len < 32) {
      return Verdict.CLOSE;
    }
    int flavor = b.getInt(base + 24);
    int credLen = b.getInt(base + 28);
    if (credLen < 0 || credLen > MAX_AUTH_BODY || 32L + pad(credLen) + 8 > len) {
      return Verdict.BAD_CRED;
    }
    if (flavor == AUTH_SYS) {
      if (!authSysValid(b, base + 32, credLen)) {
        return Verdict.BAD_CRED;
      }
    } else if (flavor != AUTH_NONE) {
      return Verdict.BAD_CRED;
    }
    int verf = base + 32 + pad(credLen);
    int verfLen = b.getInt(verf + 4);
    if (verfLen < 0 || verfLen > MAX_AUTH_BODY || (long) verf - base + 8 + pad(verfLen) > len) {
      return Verdict.BAD_VERF;
    }
    return Verdict.CALL;
  }

  /** authsys_parms: stamp, machinename, uid, gid, gids; exactly {@code len} bytes. */
  private static boolean authSysValid(Buffer b, int at, int len) {
    if (len < 20) {
      return false;
    }
    int nameLen = b.getInt(at + 4);
    if (nameLen < 0 || nameLen > MAX_MACHINE_NAME || 8 + pad(nameLen) + 12 > len) {
      return false;
    }
    int gidsAt = at + 8 + pad(nameLen) + 8;
    int gids = b.getInt(gidsAt);
    return gids >= 0 && gids <= MAX_GIDS && 8 + pad(nameLen) + 12 + 4 * gids == len;
  }

  private static int pad(int n) {
    return (n + 3) & ~3;
  }
}
