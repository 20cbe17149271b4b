package io.ossgw.nfs.handle;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.cluster.ClusterStoreException;
import io.ossgw.core.cluster.ClusterStoreException.Kind;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.nfsstat3;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A store that comes back by itself is "try later"; one that will not (full, wrong password) is an error the client
 * sees at once; the log keeps one line per kind per 10 s (an injected clock, no sleeping).
 */
class StoreFailuresTest {
  private static ClusterStoreException failure(Kind kind) {
    return new ClusterStoreException(kind, "inode_allocate on redis://127.0.0.1:1: " + kind, null);
  }

  @Test
  void onlyAnUnreachableStoreIsRetried() {
    assertThat(StoreFailures.nfs3Status(failure(Kind.UNREACHABLE))).isEqualTo(nfsstat3.NFS3ERR_JUKEBOX);
    assertThat(StoreFailures.nfs3Status(failure(Kind.FULL))).isEqualTo(nfsstat3.NFS3ERR_NOSPC);
    assertThat(StoreFailures.nfs3Status(failure(Kind.AUTH))).isEqualTo(nfsstat3.NFS3ERR_IO);
    assertThat(StoreFailures.nfs3Status(failure(Kind.OTHER))).isEqualTo(nfsstat3.NFS3ERR_IO);
    assertThat(StoreFailures.nfs4Status(failure(Kind.UNREACHABLE))).isEqualTo(Nfs4.NFS4ERR_DELAY);
    assertThat(StoreFailures.nfs4Status(failure(Kind.FULL))).isEqualTo(Nfs4.NFS4ERR_NOSPC);
    assertThat(StoreFailures.nfs4Status(failure(Kind.AUTH))).isEqualTo(Nfs4.NFS4ERR_IO);
  }

  @Test
  void oneLinePerKindEveryTenSeconds() {
    AtomicLong now = new AtomicLong(123_456_789L);
    StoreFailures log = new StoreFailures(now::get);
    assertThat(log.log("NFS procedure 3", failure(Kind.FULL), "NFS3ERR_NOSPC")).isTrue();
    for (int i = 0; i < 1000; i++) {
      now.addAndGet(5_000_000L); // 1,000 calls in 5 s
      assertThat(log.log("NFS procedure 3", failure(Kind.FULL), "NFS3ERR_NOSPC")).isFalse();
    }
    assertThat(log.log("NFS procedure 8", failure(Kind.UNREACHABLE), "NFS3ERR_JUKEBOX"))
        .as("another kind has its own line").isTrue();
    now.addAndGet(StoreFailures.LOG_EVERY_NANOS - 5_000_000_000L);
    assertThat(log.log("NFS procedure 3", failure(Kind.FULL), "NFS3ERR_NOSPC")).as("10 s after the first").isTrue();
    assertThat(log.log("NFS procedure 3", failure(Kind.FULL), "NFS3ERR_NOSPC")).isFalse();
  }
}
