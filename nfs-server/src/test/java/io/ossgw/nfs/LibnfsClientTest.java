package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.export.Export;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libnfs-utils against the server (no portmapper: nfsport and mountport in the URL): nfs-cp up and down with
 * checksums, nfs-cat, nfs-ls, sub-directory mounts, and a refused client network.
 */
class LibnfsClientTest {
  static final Duration T = Duration.ofSeconds(60);
  @TempDir
  static Path state;
  static NfsGateway gw;

  @BeforeAll
  static void start() {
    ExternalClients.requireLibnfs();
    gw = new NfsGateway(state, null, e -> List.of(Export.builder("/" + NfsGateway.BUCKET, e.fileSystem()).build(),
        Export.builder("/closed", e.fileSystem()).clients(List.of("10.0.0.0/8")).build()));
  }

  @AfterAll
  static void stop() {
    if (gw != null) {
      gw.close();
    }
  }

  @Test
  void copyUpAndDownWithChecksumsAndThePlainObject(@TempDir Path tmp) throws Exception {
    byte[] data = new byte[1 << 20];
    new Random(21).nextBytes(data);
    Path up = tmp.resolve("up.bin");
    Files.write(up, data);
    // libnfs mounts the directory of the file it copies to: it must exist
    gw.engine.fileSystem().mkdir("/lib", 0777, io.ossgw.core.vfs.Caller.ROOT);
    ExternalClients.ok(T, "nfs-cp", up.toString(), gw.url("/lib/up.bin"));
    assertThat(gw.object("lib/up.bin")).isEqualTo(data);
    Map<String, String> meta = gw.sdk.getObjectMetadata(NfsGateway.BUCKET, "lib/up.bin").getUserMetadata();
    assertThat(meta).containsKeys("mode", "uid", "gid", "mtime");
    assertThat(Integer.parseInt(meta.get("mode")) & 0170000).isEqualTo(0100000);
    Path down = tmp.resolve("down.bin");
    ExternalClients.ok(T, "nfs-cp", gw.url("/lib/up.bin"), down.toString());
    assertThat(Files.readAllBytes(down)).isEqualTo(data);
  }

  @Test
  void catAndListObjectsWrittenByOtherClients() {
    gw.sdk.putObject(NfsGateway.BUCKET, "cat/hello.txt", new java.io.ByteArrayInputStream(NfsClient.utf8("hi there\n")));
    gw.sdk.putObject(NfsGateway.BUCKET, "cat/sub/deep.txt", new java.io.ByteArrayInputStream(NfsClient.utf8("deep")));
    gw.restart(); // cold caches: the engine sees other clients' objects when its cache entries expire
    // objects without metadata belong to the engine's default owner (1000 here) with ossfs's modes 0640/0750: read
    // them as that user (libnfs runs as root otherwise, which the export squashes to 65534)
    ExternalClients.Result cat = ExternalClients.ok(T, "nfs-cat", asUser(gw.url("/cat/hello.txt")));
    assertThat(cat.stdout()).isEqualTo("hi there\n");
    ExternalClients.Result ls = ExternalClients.ok(T, "nfs-ls", asUser(gw.url("/cat")));
    assertThat(ls.stdout()).contains("hello.txt").contains("sub");
    assertThat(ls.stdout().lines().filter(l -> l.endsWith(" hello.txt")).findFirst().orElseThrow()).contains(" 9 ");
    ExternalClients.Result deep = ExternalClients.ok(T, "nfs-cat", asUser(gw.url("/cat/sub/deep.txt")));
    assertThat(deep.stdout()).isEqualTo("deep");
    ExternalClients.Result recursive = ExternalClients.ok(T, "nfs-ls", "-R", asUser(gw.url("/cat")));
    assertThat(recursive.stdout()).contains("deep.txt");
  }

  static String asUser(String url) {
    return url + "&uid=1000&gid=1000";
  }

  @Test
  void aRefusedNetworkCannotList() {
    String url = "nfs://127.0.0.1/closed?version=3&nfsport=" + gw.port() + "&mountport=" + gw.port();
    ExternalClients.Result r = ExternalClients.run(T, List.of("nfs-ls", url));
    assertThat(r.exit()).isNotZero();
    assertThat(ExternalClients.run(T, List.of("nfs-ls", gw.url("/"))).exit()).isZero();
  }
}
