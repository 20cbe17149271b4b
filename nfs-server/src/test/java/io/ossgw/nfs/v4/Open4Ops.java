package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Wire.op;

import io.ossgw.nfs.v4.xdr.*;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Test-side builders of the open-state and data operations (OPEN, OPEN_DOWNGRADE, CLOSE, READ, WRITE, COMMIT) and
 * helpers reading their results.
 */
final class Open4Ops {
  private Open4Ops() {}

  static final int READ = Nfs4.OPEN4_SHARE_ACCESS_READ;
  static final int WRITE = Nfs4.OPEN4_SHARE_ACCESS_WRITE;
  static final int BOTH = Nfs4.OPEN4_SHARE_ACCESS_BOTH;

  static state_owner4 owner(String name) {
    return new state_owner4(0, name.getBytes(StandardCharsets.UTF_8));
  }

  /** createattrs with a mode. */
  static fattr4 mode(int mode) {
    return V4Client.fattr(bitmap4.of(Nfs4.FATTR4_MODE), w -> w.int32(mode));
  }

  /** OPEN4_CREATE of {@code name} in the current directory with UNCHECKED4 / GUARDED4 and a mode. */
  static nfs_argop4 create(String owner, String name, int createmode, int access, int deny) {
    return op(Nfs4.OP_OPEN, new OPEN4args(0, access, deny, owner(owner), Nfs4.OPEN4_CREATE, createmode, mode(0644),
        null, open_claim4.nullClaim(name)));
  }

  /** OPEN4_CREATE EXCLUSIVE4_1 (with a mode) or EXCLUSIVE4 (verifier only). */
  static nfs_argop4 exclusive(String owner, String name, int createmode, long verifier) {
    byte[] v = ByteBuffer.allocate(8).putLong(verifier).array();
    return op(Nfs4.OP_OPEN, new OPEN4args(0, BOTH, 0, owner(owner), Nfs4.OPEN4_CREATE, createmode,
        createmode == Nfs4.EXCLUSIVE4_1 ? mode(0600) : null, v, open_claim4.nullClaim(name)));
  }

  /** OPEN4_NOCREATE of {@code name} in the current directory. */
  static nfs_argop4 open(String owner, String name, int access, int deny) {
    return op(Nfs4.OP_OPEN, new OPEN4args(0, access, deny, owner(owner), Nfs4.OPEN4_NOCREATE, 0, null, null,
        open_claim4.nullClaim(name)));
  }

  /** OPEN4_NOCREATE with another claim of the current filehandle (CLAIM_FH, CLAIM_PREVIOUS). */
  static nfs_argop4 open(String owner, open_claim4 claim, int access, int deny) {
    return op(Nfs4.OP_OPEN, new OPEN4args(0, access, deny, owner(owner), Nfs4.OPEN4_NOCREATE, 0, null, null, claim));
  }

  static nfs_argop4 read(stateid4 s, long offset, int count) {
    return op(Nfs4.OP_READ, new READ4args(s, offset, count));
  }

  static nfs_argop4 write(stateid4 s, long offset, int stable, String data) {
    return op(Nfs4.OP_WRITE, new WRITE4args(s, offset, stable,
        ByteBuffer.wrap(data.getBytes(StandardCharsets.UTF_8))));
  }

  static nfs_argop4 commit() {
    return op(Nfs4.OP_COMMIT, new COMMIT4args(0, 0));
  }

  static nfs_argop4 close(stateid4 s) {
    return op(Nfs4.OP_CLOSE, new CLOSE4args(0, s));
  }

  static nfs_argop4 downgrade(stateid4 s, int access, int deny) {
    return op(Nfs4.OP_OPEN_DOWNGRADE, new OPEN_DOWNGRADE4args(s, 0, access, deny));
  }

  /** The bytes a READ result carries. */
  static String text(READ4resok r) {
    ByteBuffer b = r.data().duplicate();
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return new String(out, StandardCharsets.UTF_8);
  }

  /** The status of result {@code i}. */
  static int status(COMPOUND4res r, int i) {
    return r.resarray().get(i).status();
  }

  /** The OPEN result at {@code i}. */
  static OPEN4resok opened(COMPOUND4res r, int i) {
    return V4Client.body(r, i);
  }
}
