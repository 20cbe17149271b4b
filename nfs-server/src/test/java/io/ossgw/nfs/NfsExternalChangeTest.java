package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.xdr.nfs_fh3;
import io.ossgw.nfs.xdr.nfsstat3;
import io.ossgw.testsupport.Slowdown;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file replaced in OSS by another client (another gateway, an SDK) is read current over NFS once the engine's
 * attributes show the new version (stat_cache_expire, 1 s here), also while a client keeps reading it so its shared
 * open handle never goes idle (issue 10 item 5: the Linux client polling a file a FUSE writer on another host
 * replaced kept reading the first version for as long as it polled).
 */
class NfsExternalChangeTest {
  @TempDir
  static Path state;
  static NfsGateway gw;
  static NfsClient c;
  static nfs_fh3 root;

  static final byte[] V1 = NfsClient.utf8("version 1\n");
  static final byte[] V2 = NfsClient.utf8("version 2, longer than the first\n");

  @BeforeAll
  static void start() {
    // open handles would live a minute without calls: only the version check can retire them
    gw = NfsGateway.withOpenIdle(state, Duration.ofSeconds(60), "stat_cache_expire=1");
    c = new NfsClient(gw.port(), 1000, 1000);
    root = c.root("/" + NfsGateway.BUCKET);
  }

  @AfterAll
  static void stop() {
    c.close();
    gw.close();
  }

  /**
   * Reads the file every 50 ms (keeping its handle busy) until it shows {@code want} or {@code limit} of a quiet
   * machine, scaled, has passed; returns the last read.
   */
  static byte[] readUntil(nfs_fh3 f, byte[] want, Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + Slowdown.scaled(limit).toNanos();
    byte[] got;
    do {
      got = c.readAll(f, 4096);
      if (Arrays.equals(got, want)) {
        return got;
      }
      Thread.sleep(50);
    } while (System.nanoTime() < deadline);
    return got;
  }

  @Test
  void aFileReadOverNfsAndReplacedInOssIsReadCurrentAfterTheStatCacheExpires() throws Exception {
    gw.sdk.putObject(NfsGateway.BUCKET, "ext/read", new ByteArrayInputStream(V1));
    nfs_fh3 f = c.walk(root, "ext/read");
    assertThat(c.readAll(f, 4096)).isEqualTo(V1);
    gw.sdk.putObject(NfsGateway.BUCKET, "ext/read", new ByteArrayInputStream(V2));
    // 1 s of stat cache, then the next READ must open the new version: 5 s is ample, the 60 s idle time far off
    assertThat(new String(readUntil(f, V2, Duration.ofSeconds(5)))).isEqualTo(new String(V2));
    assertThat(c.getattr(f).objAttributes().size()).isEqualTo(V2.length);
  }

  @Test
  void aFileWrittenOverNfsAndReplacedInOssIsReadCurrentToo() throws Exception {
    assertThat(c.mkdir(root, "ext2", 0755).status()).isEqualTo(nfsstat3.NFS3_OK);
    nfs_fh3 dir = c.walk(root, "ext2");
    nfs_fh3 f = c.put(dir, "mine", V1); // CREATE + WRITE + COMMIT: the handle stays open, its data uploaded
    assertThat(gw.object("ext2/mine")).isEqualTo(V1);
    assertThat(c.readAll(f, 4096)).isEqualTo(V1);
    gw.sdk.putObject(NfsGateway.BUCKET, "ext2/mine", new ByteArrayInputStream(V2));
    assertThat(new String(readUntil(f, V2, Duration.ofSeconds(5)))).isEqualTo(new String(V2));
  }
}
