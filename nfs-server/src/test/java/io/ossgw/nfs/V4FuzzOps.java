package io.ossgw.nfs;

import io.ossgw.nfs.v4.xdr.Nfs4;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Random NFSv4.1 operations for {@link Nfs4FuzzTest}, written as XDR by hand (RFC 8881 §18, the argument layouts) so
 * the fuzz does not depend on the server's own XDR classes: mostly well-formed arguments with values a client could
 * send (the export's real handle, names that exist or are invalid, stateids the server gave out, the anonymous and
 * bypass stateids), plus operations with random bytes as arguments. Tests only; not thread-safe (one per thread).
 */
final class V4FuzzOps {
  /** XDR encoder over a growing buffer; words are big-endian, opaques padded to 4 bytes. */
  static final class Enc {
    private ByteBuffer b = ByteBuffer.allocate(256);

    Enc int32(int v) {
      room(4);
      b.putInt(v);
      return this;
    }

    Enc int64(long v) {
      room(8);
      b.putLong(v);
      return this;
    }

    Enc fixed(byte[] v) {
      room(v.length + 3);
      b.put(v);
      b.position((b.position() + 3) & ~3);
      return this;
    }

    Enc opaque(byte[] v) {
      return int32(v.length).fixed(v);
    }

    Enc string(String s) {
      return opaque(s.getBytes(StandardCharsets.UTF_8));
    }

    int size() {
      return b.position();
    }

    byte[] bytes() {
      return Arrays.copyOf(b.array(), b.position());
    }

    private void room(int n) {
      if (b.remaining() < n) {
        b = ByteBuffer.allocate(Math.max(b.capacity() * 2, b.position() + n)).put(b.flip());
      }
    }
  }

  static final byte[] ANONYMOUS = new byte[16];
  static final byte[] BYPASS = new byte[16];

  static {
    Arrays.fill(BYPASS, (byte) 0xff);
  }

  private final Random rnd;
  private final byte[] rootHandle;
  private final long clientid;
  /** Stateids (16 bytes each) the server gave out to this thread's session (OPEN, LOCK replies). */
  final List<byte[]> stateids = new ArrayList<>();

  /**
   * @param rootHandle the export root's file handle (the v3 handle bytes, which NFSv4.1 uses as well)
   * @param clientid this thread's client id (open and lock owners name it)
   */
  V4FuzzOps(Random rnd, byte[] rootHandle, long clientid) {
    this.rnd = rnd;
    this.rootHandle = rootHandle;
    this.clientid = clientid;
  }

  private static final String[] NAMES = {"f1", "f2", "d1", "nope", "", ".", "..", "a/b", "x".repeat(300),
      "\u00e9t\u00e9", "with space"};

  private String name() {
    return NAMES[rnd.nextInt(NAMES.length)];
  }

  private void component(Enc e) {
    if (rnd.nextInt(12) == 0) {
      e.opaque(new byte[] {(byte) 0xc3, (byte) 0x28, 'x'}); // not UTF-8
    } else {
      e.string(name());
    }
  }

  private byte[] handle() {
    return switch (rnd.nextInt(6)) {
      case 0 -> new byte[0];
      case 1 -> random(1 + rnd.nextInt(128));
      case 2 -> {
        byte[] h = rootHandle.clone();
        h[rnd.nextInt(h.length)] ^= (byte) (1 << rnd.nextInt(8));
        yield h;
      }
      default -> rootHandle;
    };
  }

  private void stateid(Enc e) {
    int k = rnd.nextInt(8);
    if (k < 3 && !stateids.isEmpty()) {
      e.fixed(stateids.get(rnd.nextInt(stateids.size())));
    } else if (k == 3) {
      e.fixed(ANONYMOUS);
    } else if (k == 4) {
      e.fixed(BYPASS);
    } else if (k == 5) {
      e.int32(1).fixed(new byte[12]); // the "current stateid" (seqid 1, other 0)
    } else {
      e.fixed(random(16));
    }
  }

  private void bitmap(Enc e) {
    int n = rnd.nextInt(5) == 0 ? rnd.nextInt(4) : 2;
    e.int32(n);
    for (int i = 0; i < n; i++) {
      e.int32(rnd.nextInt(3) == 0 ? rnd.nextInt() : 0x0010011a | (i == 1 ? 0x00b0a03a : 0));
    }
  }

  /** fattr4: mode, size, owner or random bits with random values. */
  private void fattr(Enc e) {
    switch (rnd.nextInt(5)) {
      case 0 -> e.int32(0).opaque(new byte[0]);
      case 1 -> e.int32(2).int32(0).int32(1 << (Nfs4.FATTR4_MODE - 32)).opaque(new Enc().int32(0644).bytes());
      case 2 -> e.int32(1).int32(1 << Nfs4.FATTR4_SIZE).opaque(new Enc().int64(rnd.nextInt(5000)).bytes());
      case 3 -> e.int32(2).int32(0).int32(1 << (36 - 32)).opaque(new Enc().string(rnd.nextBoolean() ? "1000" : "bob")
          .bytes());
      default -> {
        bitmap(e);
        e.opaque(random(rnd.nextInt(40)));
      }
    }
  }

  private void owner(Enc e) {
    e.int64(rnd.nextInt(4) == 0 ? rnd.nextLong() : clientid).opaque(random(1 + rnd.nextInt(3)));
  }

  byte[] random(int n) {
    byte[] b = new byte[n];
    rnd.nextBytes(b);
    return b;
  }

  private static final int[] OPS = {Nfs4.OP_ACCESS, Nfs4.OP_CLOSE, Nfs4.OP_COMMIT, Nfs4.OP_CREATE, Nfs4.OP_GETATTR,
      Nfs4.OP_GETFH, Nfs4.OP_LINK, Nfs4.OP_LOCK, Nfs4.OP_LOCKT, Nfs4.OP_LOCKU, Nfs4.OP_LOOKUP, Nfs4.OP_LOOKUPP,
      Nfs4.OP_NVERIFY, Nfs4.OP_OPEN, Nfs4.OP_OPEN_DOWNGRADE, Nfs4.OP_PUTFH, Nfs4.OP_PUTPUBFH, Nfs4.OP_PUTROOTFH,
      Nfs4.OP_READ, Nfs4.OP_READDIR, Nfs4.OP_READLINK, Nfs4.OP_REMOVE, Nfs4.OP_RENAME, Nfs4.OP_RESTOREFH,
      Nfs4.OP_SAVEFH, Nfs4.OP_SECINFO, Nfs4.OP_SETATTR, Nfs4.OP_VERIFY, Nfs4.OP_WRITE, Nfs4.OP_FREE_STATEID,
      Nfs4.OP_SECINFO_NO_NAME, Nfs4.OP_TEST_STATEID, Nfs4.OP_RECLAIM_COMPLETE, Nfs4.OP_RELEASE_LOCKOWNER};

  /** Writes one random operation (its number and arguments). */
  void op(Enc e) {
    if (rnd.nextInt(10) == 0) { // any legal or illegal number with random arguments
      e.int32(rnd.nextInt(10) == 0 ? rnd.nextInt() : rnd.nextInt(75)).fixed(random(4 * rnd.nextInt(12)));
      return;
    }
    int op = OPS[rnd.nextInt(OPS.length)];
    e.int32(op);
    switch (op) {
      case Nfs4.OP_ACCESS, Nfs4.OP_SECINFO_NO_NAME -> e.int32(rnd.nextInt(64));
      case Nfs4.OP_CLOSE -> {
        e.int32(rnd.nextInt(4));
        stateid(e);
      }
      case Nfs4.OP_COMMIT -> e.int64(rnd.nextInt(3) == 0 ? -1L : rnd.nextInt(10_000)).int32(rnd.nextInt(1 << 20));
      case Nfs4.OP_CREATE -> {
        int type = 1 + rnd.nextInt(9);
        e.int32(type);
        if (type == Nfs4.NF4LNK) {
          e.string(rnd.nextBoolean() ? "target" : "");
        } else if (type == Nfs4.NF4BLK || type == Nfs4.NF4CHR) {
          e.int32(rnd.nextInt(10)).int32(rnd.nextInt(10));
        }
        component(e);
        fattr(e);
      }
      case Nfs4.OP_GETATTR -> bitmap(e);
      case Nfs4.OP_LINK, Nfs4.OP_LOOKUP, Nfs4.OP_REMOVE, Nfs4.OP_SECINFO -> component(e);
      case Nfs4.OP_LOCK -> lock(e);
      case Nfs4.OP_LOCKT -> {
        e.int32(1 + rnd.nextInt(4)).int64(range()).int64(range());
        owner(e);
      }
      case Nfs4.OP_LOCKU -> {
        e.int32(1 + rnd.nextInt(4)).int32(rnd.nextInt(4));
        stateid(e);
        e.int64(range()).int64(range());
      }
      case Nfs4.OP_NVERIFY, Nfs4.OP_VERIFY -> fattr(e);
      case Nfs4.OP_OPEN -> open(e);
      case Nfs4.OP_OPEN_DOWNGRADE -> {
        stateid(e);
        e.int32(rnd.nextInt(4)).int32(rnd.nextInt(4)).int32(rnd.nextInt(4));
      }
      case Nfs4.OP_PUTFH -> e.opaque(handle());
      case Nfs4.OP_READ -> {
        stateid(e);
        e.int64(range()).int32(rnd.nextInt(4) == 0 ? rnd.nextInt() : rnd.nextInt(70_000));
      }
      case Nfs4.OP_READDIR -> {
        e.int64(rnd.nextInt(3) == 0 ? rnd.nextLong() : rnd.nextInt(4)).fixed(rnd.nextBoolean() ? new byte[8] : random(8))
            .int32(rnd.nextInt(3) == 0 ? rnd.nextInt() : rnd.nextInt(8192))
            .int32(rnd.nextInt(3) == 0 ? rnd.nextInt() : rnd.nextInt(32768));
        bitmap(e);
      }
      case Nfs4.OP_RENAME -> {
        component(e);
        component(e);
      }
      case Nfs4.OP_SETATTR -> {
        stateid(e);
        fattr(e);
      }
      case Nfs4.OP_WRITE -> {
        stateid(e);
        e.int64(range()).int32(rnd.nextInt(4)).opaque(random(rnd.nextInt(3000)));
      }
      case Nfs4.OP_FREE_STATEID -> stateid(e);
      case Nfs4.OP_TEST_STATEID -> {
        int n = rnd.nextInt(4);
        e.int32(n);
        for (int i = 0; i < n; i++) {
          stateid(e);
        }
      }
      case Nfs4.OP_RECLAIM_COMPLETE -> e.int32(rnd.nextInt(2));
      case Nfs4.OP_RELEASE_LOCKOWNER -> owner(e);
      default -> { } // no arguments: GETFH, LOOKUPP, PUTPUBFH, PUTROOTFH, READLINK, RESTOREFH, SAVEFH
    }
  }

  private long range() {
    return switch (rnd.nextInt(5)) {
      case 0 -> -1L;
      case 1 -> 0;
      case 2 -> rnd.nextLong();
      default -> rnd.nextInt(10_000);
    };
  }

  /** OPEN4args: seqid, share access and deny, open owner, openflag4, open_claim4 (RFC 8881 §18.16.1). */
  void open(Enc e) {
    e.int32(rnd.nextInt(4)).int32(rnd.nextInt(8) == 0 ? rnd.nextInt(0x10000) : 1 + rnd.nextInt(3))
        .int32(rnd.nextInt(6) == 0 ? rnd.nextInt(4) : 0);
    owner(e);
    int create = rnd.nextInt(3) == 0 ? 0 : 1;
    e.int32(create);
    if (create == 1) {
      int how = rnd.nextInt(4);
      e.int32(how);
      switch (how) {
        case 2 -> e.fixed(random(8));
        case 3 -> {
          e.fixed(random(8));
          fattr(e);
        }
        default -> fattr(e);
      }
    }
    int claim = rnd.nextInt(6) == 0 ? rnd.nextInt(8) : (rnd.nextInt(4) == 0 ? Nfs4.CLAIM_FH : Nfs4.CLAIM_NULL);
    e.int32(claim);
    switch (claim) {
      case Nfs4.CLAIM_NULL, Nfs4.CLAIM_DELEGATE_PREV -> component(e);
      case Nfs4.CLAIM_PREVIOUS -> e.int32(rnd.nextInt(4));
      case Nfs4.CLAIM_DELEGATE_CUR -> {
        stateid(e);
        component(e);
      }
      case Nfs4.CLAIM_DELEG_CUR_FH -> stateid(e);
      default -> { } // CLAIM_FH, CLAIM_DELEG_PREV_FH: void
    }
  }

  /** LOCK4args with a new lock owner (from an open stateid) or an existing one (RFC 8881 §18.10.1). */
  void lock(Enc e) {
    e.int32(rnd.nextInt(8) == 0 ? rnd.nextInt() : 1 + rnd.nextInt(4)).int32(rnd.nextInt(6) == 0 ? 1 : 0)
        .int64(range()).int64(range());
    boolean fresh = rnd.nextBoolean();
    e.int32(fresh ? 1 : 0);
    if (fresh) {
      e.int32(rnd.nextInt(4));
      stateid(e);
      e.int32(rnd.nextInt(4));
      owner(e);
    } else {
      stateid(e);
      e.int32(rnd.nextInt(4));
    }
  }

  /** A well-formed OPEN that creates (UNCHECKED4) or opens {@code name} under the current filehandle, CLAIM_NULL. */
  void openCreate(Enc e, String name) {
    e.int32(Nfs4.OP_OPEN).int32(0).int32(Nfs4.OPEN4_SHARE_ACCESS_BOTH).int32(Nfs4.OPEN4_SHARE_DENY_NONE);
    e.int64(clientid).opaque("fuzz-owner".getBytes(StandardCharsets.UTF_8));
    e.int32(Nfs4.OPEN4_CREATE).int32(0).int32(0).opaque(new byte[0]);
    e.int32(Nfs4.CLAIM_NULL).string(name);
  }

  /** PUTFH of the export root. */
  void putRoot(Enc e) {
    e.int32(Nfs4.OP_PUTFH).opaque(rootHandle);
  }
}
