package io.ossgw.nfs.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.glassfish.grizzly.memory.Buffers;
import org.glassfish.grizzly.memory.MemoryManager;
import org.junit.jupiter.api.Test;

/** Which call headers reach oncrpc4j's decoder. */
class RpcHeaderTest {
  /** A CALL with AUTH_SYS (machine name length, gid count as given) and an AUTH_NONE verifier. */
  static ByteBuffer call(int nameLen, int gids, int credLenDelta, int verfLen) {
    ByteBuffer b = ByteBuffer.allocate(2048);
    b.putInt(7).putInt(0).putInt(2).putInt(100003).putInt(3).putInt(0);
    int credLen = 4 + 4 + ((nameLen + 3) & ~3) + 4 + 4 + 4 + 4 * gids;
    b.putInt(1).putInt(credLen + credLenDelta).putInt(0).putInt(nameLen);
    b.position(b.position() + ((nameLen + 3) & ~3));
    b.putInt(1000).putInt(1000).putInt(gids);
    b.position(b.position() + 4 * gids);
    b.putInt(0).putInt(verfLen);
    b.position(b.position() + ((Math.max(0, verfLen) + 3) & ~3));
    b.flip();
    return b;
  }

  static RpcHeader.Verdict check(ByteBuffer b) {
    return RpcHeader.check(Buffers.wrap(MemoryManager.DEFAULT_MEMORY_MANAGER, b));
  }

  @Test
  void verdicts() {
    assertThat(check(call(9, 3, 0, 0))).isEqualTo(RpcHeader.Verdict.CALL);
    assertThat(check(call(256, 0, 0, 0))).as("machine name over 255").isEqualTo(RpcHeader.Verdict.BAD_CRED);
    assertThat(check(call(4, 17, 0, 0))).as("17 gids").isEqualTo(RpcHeader.Verdict.BAD_CRED);
    assertThat(check(call(4, 2, 4, 0))).as("body longer than its fields").isEqualTo(RpcHeader.Verdict.BAD_CRED);
    assertThat(check(call(4, 2, 0, 401))).as("verifier over 400").isEqualTo(RpcHeader.Verdict.BAD_VERF);
    ByteBuffer reply = ByteBuffer.allocate(8).putInt(1).putInt(1).flip();
    assertThat(check(reply)).isEqualTo(RpcHeader.Verdict.IGNORE);
    assertThat(check(ByteBuffer.allocate(6))).isEqualTo(RpcHeader.Verdict.CLOSE);
    ByteBuffer gss = call(4, 0, 0, 0);
    gss.putInt(24, 6);
    assertThat(check(gss)).as("RPCSEC_GSS").isEqualTo(RpcHeader.Verdict.BAD_CRED);
    ByteBuffer hugeGids = call(4, 0, 0, 0);
    hugeGids.putInt(32 + 4 + 4 + 4 + 4 + 4, Integer.MAX_VALUE);
    assertThat(check(hugeGids)).isEqualTo(RpcHeader.Verdict.BAD_CRED);
    ByteBuffer v1 = call(4, 0, 0, 0);
    v1.putInt(8, 1);
    assertThat(check(v1)).as("RPC version 1: oncrpc4j answers RPC_MISMATCH").isEqualTo(RpcHeader.Verdict.CALL);
  }
}
