package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.export.Export;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * nfs-rs (PyPI) against the server: the file operations with checksums, a 300 MB file, paging through 5,000 entries
 * while the directory changes, and a restart between a write and a read with the client's old handles.
 */
class NfsRsClientTest {
  static final Duration T = Duration.ofMinutes(3);
  @TempDir
  Path state;

  private static String sha256(byte[] b) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
  }

  @Test
  void fileOperationsAndTheObjectsTheyLeave() throws Exception {
    String py = ExternalClients.python();
    try (NfsGateway gw = NfsGateway.simple(state)) {
      ExternalClients.Result r = ExternalClients.ok(T, py, ExternalClients.DRIVER.toString(), "ops", gw.url(""), "rs");
      String json = r.lastLine();
      // the truncated, renamed file is a plain object with ossfs metadata
      byte[] obj = gw.object("rs/renamed.bin");
      assertThat(obj).hasSize(1000);
      var meta = gw.sdk.getObjectMetadata(NfsGateway.BUCKET, "rs/renamed.bin").getUserMetadata();
      assertThat(meta).containsEntry("mode", String.valueOf(0100600)).containsEntry("uid", "1000");
      assertThat(meta.get("mtime")).startsWith("1600000000");
      assertThat(json).contains("\"one_mode\": 384");
      assertThat(gw.sdk.doesObjectExist(NfsGateway.BUCKET, "rs/one.bin")).isFalse();
      assertThat(gw.sdk.doesObjectExist(NfsGateway.BUCKET, "rs/sub/")).isFalse();
    }
  }

  @Test
  void a300MbFileWrittenAndReadWithChecksums(@TempDir Path data) throws Exception {
    String py = ExternalClients.python();
    long size = 300L * 1000 * 1000;
    // a directory-backed emulator keeps the object off the heap
    try (NfsGateway gw = new NfsGateway(state, data, e -> List.of(Export.builder("/" + NfsGateway.BUCKET,
        e.fileSystem()).build()))) {
      ExternalClients.Result r = ExternalClients.ok(T, py, ExternalClients.DRIVER.toString(), "big", gw.url(""),
          "big.bin", String.valueOf(size), "9");
      String want = r.lastLine().replaceAll(".*\"sha256\": \"([0-9a-f]+)\".*", "$1");
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      try (var in = gw.sdk.getObject(NfsGateway.BUCKET, "big.bin").getObjectContent()) {
        byte[] buf = new byte[1 << 20];
        int n;
        long total = 0;
        while ((n = in.read(buf)) > 0) {
          md.update(buf, 0, n);
          total += n;
        }
        assertThat(total).isEqualTo(size);
      }
      assertThat(HexFormat.of().formatHex(md.digest())).as("the object in OSS").isEqualTo(want);
    }
  }

  @Test
  void listingFiveThousandEntriesInPagesWhileTheDirectoryChanges() throws Exception {
    String py = ExternalClients.python();
    try (NfsGateway gw = NfsGateway.simple(state)) {
      ExecutorService pool = Executors.newFixedThreadPool(32);
      List<Future<?>> puts = new ArrayList<>();
      for (int i = 0; i < 5000; i++) {
        String key = String.format("many/entry-%05d", i);
        puts.add(pool.submit(() -> gw.sdk.putObject(NfsGateway.BUCKET, key, new ByteArrayInputStream(new byte[0]))));
      }
      for (Future<?> f : puts) {
        f.get();
      }
      pool.shutdown();
      ExternalClients.Result r = ExternalClients.ok(T, py, ExternalClients.DRIVER.toString(), "listing", gw.url(""),
          "many", "5000");
      assertThat(r.lastLine()).contains("\"count\": 5000");
      assertThat(gw.server.stats().calls(io.ossgw.nfs.xdr.Nfs3.NFSPROC3_READDIRPLUS)).isGreaterThan(10);
    }
  }

  @Test
  void aRestartBetweenWriteAndReadKeepsTheClientsHandlesValid() throws Exception {
    try (NfsGateway gw = NfsGateway.simple(state);
        ExternalClients.Interactive d = new ExternalClients.Interactive("restart", gw.url(""))) {
      d.await("READY", T);
      gw.restart();
      d.send("GO");
      assertThat(d.finish(T)).as(d.stderr()).isZero();
      byte[] obj = gw.object("rst/file.bin");
      assertThat(obj).hasSize(3 << 20);
      assertThat(sha256(obj)).isNotEmpty();
    }
  }
}
