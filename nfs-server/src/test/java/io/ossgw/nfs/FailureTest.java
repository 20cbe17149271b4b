package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.xdr.*;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OSS failures as NFS clients see them: NFS3ERR_IO, never NOENT or STALE, and no acknowledged data lost. */
class FailureTest {
  @TempDir
  Path state;

  @Test
  void aFailedCommitIsIoAndTheDataStaysStagedForTheNextOne() {
    try (NfsGateway gw = NfsGateway.simple(state); NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
      nfs_fh3 root = c.root("/" + NfsGateway.BUCKET);
      nfs_fh3 f = c.create(root, "f", 0644).obj();
      // the fault comes before the WRITE: on a busy machine the open file's idle release (500 ms) could otherwise
      // upload the bytes between the WRITE and the fault, and the COMMIT would rightly succeed
      gw.emu.faults().failWith(503, "ServiceUnavailable", 1.0, Set.of("PutObject"));
      WRITE3res w = c.write(f, 0, NfsClient.utf8("precious"), Nfs3.UNSTABLE);
      assertThat(w.status()).isEqualTo(nfsstat3.NFS3_OK);
      COMMIT3res failed = c.commit(f);
      assertThat(failed.status()).isEqualTo(nfsstat3.NFS3ERR_IO);
      assertThat(c.readAll(f, 100)).isEqualTo(NfsClient.utf8("precious"));
      // the idle release fails too and keeps the file open
      sleep(1500);
      assertThat(gw.server.openFiles()).isEqualTo(1);
      gw.emu.faults().clear();
      COMMIT3res ok = c.commit(f);
      assertThat(ok.status()).isEqualTo(nfsstat3.NFS3_OK);
      assertThat(ok.verf()).as("nothing was dropped: the verifier of the WRITE").isEqualTo(w.verf());
      assertThat(gw.object("f")).isEqualTo(NfsClient.utf8("precious"));
    }
  }

  @Test
  void failingMetadataRequestsAreIoNotMissing() {
    try (NfsGateway gw = NfsGateway.simple(state, "stat_cache_expire=0");
        NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
      nfs_fh3 root = c.root("/" + NfsGateway.BUCKET);
      nfs_fh3 f = c.put(root, "f", NfsClient.utf8("x"));
      gw.emu.faults().failWith(500, "InternalError", 1.0, Set.of("HeadObject", "ListObjectsV2"));
      GETATTR3res a = c.getattr(f);
      assertThat(a.status()).isEqualTo(nfsstat3.NFS3ERR_IO);
      assertThat(c.lookup(root, "g").status()).isEqualTo(nfsstat3.NFS3ERR_IO);
      gw.emu.faults().clear();
      assertThat(c.getattr(f).status()).isEqualTo(nfsstat3.NFS3_OK);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
