package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.ExportTest;
import io.ossgw.nfs.nlm.Nlm4;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.Nfs3;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link NfsServerBuilder#nfsV3} and {@link NfsServerBuilder#nfsV41} over TCP: a NULL call to a version not served
 * gets PROG_MISMATCH with the versions that are (RFC 5531 §9), MOUNT and NLM go with v3, and the builder refuses a
 * server with no version or rpcbind without v3.
 */
class NfsVersionsTest {
  private static final int PROG_MISMATCH = 2;
  private static final int PROG_UNAVAIL = 1;

  @TempDir
  Path state;

  private NfsServer start(boolean v3, boolean v41) {
    return NfsServer.builder().bind("127.0.0.1").port(0).stateDir(state).nfsV3(v3).nfsV41(v41)
        .export(Export.builder("/a", ExportTest.FS).build()).build().start();
  }

  private static RawRpc.Reply nullCall(NfsServer s, int prog, int vers) throws Exception {
    try (RawRpc rpc = new RawRpc(s.port())) {
      rpc.send(RawRpc.call(7, prog, vers, 0, 0, 0, new byte[0]));
      return rpc.read();
    }
  }

  @Test
  void versionThreeOnlyAnswersVersionFourWithProgMismatchThreeToThree() throws Exception {
    try (NfsServer s = start(true, false)) {
      RawRpc.Reply r = nullCall(s, Nfs4.PROGRAM, Nfs4.VERSION);
      assertThat(r.accepted()).isTrue();
      assertThat(r.stat()).isEqualTo(PROG_MISMATCH);
      assertThat(new int[] {r.low(), r.high()}).containsExactly(3, 3);
      assertThat(nullCall(s, Nfs3.NFS_PROGRAM, Nfs3.VERSION).stat()).isZero();
      assertThat(nullCall(s, Nfs3.MOUNT_PROGRAM, Nfs3.VERSION).stat()).isZero();
      assertThat(s.v4Compound()).isNull();
      assertThat(s.v4State()).isNull();
      assertThat(s.servesV3()).isTrue();
      assertThat(s.servesV41()).isFalse();
    }
  }

  @Test
  void versionFourOneOnlyAnswersVersionThreeWithProgMismatchFourToFourAndServesNoMountOrNlm() throws Exception {
    try (NfsServer s = start(false, true)) {
      RawRpc.Reply r = nullCall(s, Nfs3.NFS_PROGRAM, Nfs3.VERSION);
      assertThat(r.stat()).isEqualTo(PROG_MISMATCH);
      assertThat(new int[] {r.low(), r.high()}).containsExactly(4, 4);
      assertThat(nullCall(s, Nfs3.MOUNT_PROGRAM, Nfs3.VERSION).stat()).isEqualTo(PROG_UNAVAIL);
      assertThat(nullCall(s, Nlm4.PROGRAM, Nlm4.VERSION).stat()).isEqualTo(PROG_UNAVAIL);
      assertThat(nullCall(s, Nfs4.PROGRAM, Nfs4.VERSION).stat()).isZero();
      assertThat(s.v4Compound()).isNotNull();
      assertThat(s.v4State().clients()).isSameAs(s.v4Clients());
    }
  }

  @Test
  void bothVersionsServedSideBySide() throws Exception {
    try (NfsServer s = start(true, true)) {
      assertThat(nullCall(s, Nfs3.NFS_PROGRAM, Nfs3.VERSION).stat()).isZero();
      assertThat(nullCall(s, Nfs4.PROGRAM, Nfs4.VERSION).stat()).isZero();
      RawRpc.Reply r = nullCall(s, Nfs3.NFS_PROGRAM, 2);
      assertThat(new int[] {r.stat(), r.low(), r.high()}).containsExactly(PROG_MISMATCH, 3, 4);
    }
  }

  @Test
  void builderRefusesNoVersionAndRpcbindWithoutVersionThree() {
    Export e = Export.builder("/a", ExportTest.FS).build();
    assertThatThrownBy(() -> NfsServer.builder().export(e).nfsV3(false).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no NFS version");
    assertThatThrownBy(() -> NfsServer.builder().export(e).nfsV3(false).nfsV41(true).rpcbind(true).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rpcbind needs NFSv3");
    assertThat(NfsServer.builder().export(e).build().servesV3()).isTrue(); // the library default stays v3 alone
  }
}
