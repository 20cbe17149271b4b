package io.ossgw.fuse;

import static io.ossgw.fuse.Sh.q;
import static io.ossgw.fuse.Sh.sh;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.testsupport.Slowdown;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** File data through a real multithreaded mount: checksummed round trips, odd offsets, append, truncate, dd. */
class FileIoMountTest extends MountedTestBase {

  @Test
  void smallFileRoundTripThroughJavaAndCat() throws Exception {
    Path f = mnt.resolve("hello.txt");
    Files.writeString(f, "hello, oss\n");
    assertThat(Files.readString(f)).isEqualTo("hello, oss\n");
    assertThat(sh("cat " + q(f)).ok().out()).isEqualTo("hello, oss\n");
    assertThat(Files.size(f)).isEqualTo(11);
    assertThat(vfs.getattr("/hello.txt").size()).isEqualTo(11);
  }

  @Test
  void twentyMibWrittenInOddPiecesOutOfOrderReadsBackIdentically() throws Exception {
    byte[] data = random(20 * 1024 * 1024 + 7, 1);
    long writesBefore = m.stats().count(FuseOp.WRITE);
    long bytesBefore = m.stats().bytesWritten();
    Path f = mnt.resolve("big.bin");
    int[] pieces = {1, 4097, 131071, 131073, 1 << 20, 3, (1 << 20) + 3, 65537};
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      // second half first, then the first half: the file grows sparse and is filled in
      writePieces(ch, data, data.length / 2 + 5, data.length, pieces);
      writePieces(ch, data, 0, data.length / 2 + 5, pieces);
    }
    assertThat(Files.size(f)).isEqualTo(data.length);
    assertThat(sha256(Files.readAllBytes(f))).isEqualTo(sha256(data));
    assertThat(sh("sha256sum " + q(f)).ok().out()).startsWith(sha256(data));

    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
      Random r = new Random(2);
      for (int i = 0; i < 200; i++) {
        int off = r.nextInt(data.length);
        int len = Math.min(1 + r.nextInt(300_000), data.length - off);
        ByteBuffer b = ByteBuffer.allocate(len);
        while (b.hasRemaining() && ch.read(b, off + b.position()) > 0) {
          // read until full
        }
        assertThat(b.array()).as("read at %d len %d", off, len).isEqualTo(slice(data, off, len));
      }
    }
    long writes = m.stats().count(FuseOp.WRITE) - writesBefore;
    assertThat(m.stats().bytesWritten() - bytesBefore).isEqualTo(data.length);
    // big_writes in effect: 20 MiB took far fewer than 5,120 4-KiB writes
    assertThat(writes).isLessThan(2000);
    // the default 256 KiB on libfuse 3, libfuse 2.9's cap of 128 KiB on jnr-fuse
    assertThat(m.stats().connection().maxWrite()).isEqualTo(m.binding().contains("libfuse3") ? 256 << 10 : 131072);
  }

  @Test
  void ddInAndCmpOut() throws Exception {
    Path src = Files.createTempFile("dd", ".bin");
    try {
      Files.write(src, random(5 * 1024 * 1024 + 123, 3));
      Path f = mnt.resolve("dd.bin");
      sh("dd if=" + q(src) + " of=" + q(f) + " bs=1M 2>/dev/null").ok();
      sh("cmp " + q(src) + " " + q(f)).ok();
      sh("dd if=" + q(f) + " of=/dev/null bs=64k 2>/dev/null").ok();
    } finally {
      Files.delete(src);
    }
  }

  @Test
  void appendWithJavaAndShell() throws Exception {
    Path f = mnt.resolve("log.txt");
    Files.writeString(f, "one\n");
    Files.writeString(f, "two\n", StandardOpenOption.APPEND);
    sh("echo three >> " + q(f)).ok();
    assertThat(Files.readString(f)).isEqualTo("one\ntwo\nthree\n");
  }

  @Test
  void truncateShrinksAndExtendsWithZerosAndFtruncateUsesTheHandle() throws Exception {
    Path f = mnt.resolve("trunc.bin");
    byte[] data = random(300_000, 4);
    Files.write(f, data);
    sh("truncate -s 100 " + q(f)).ok();
    assertThat(Files.readAllBytes(f)).isEqualTo(slice(data, 0, 100));
    sh("truncate -s 5000 " + q(f)).ok();
    byte[] grown = Files.readAllBytes(f);
    assertThat(grown).hasSize(5000);
    assertThat(slice(grown, 0, 100)).isEqualTo(slice(data, 0, 100));
    assertThat(slice(grown, 100, 4900)).containsOnly(0);

    long ftruncates = m.stats().count(FuseOp.FTRUNCATE);
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
      ch.truncate(42);
    }
    assertThat(Files.size(f)).isEqualTo(42);
    assertThat(m.stats().count(FuseOp.FTRUNCATE)).isGreaterThan(ftruncates);
  }

  @Test
  void unlinkedOpenFileStaysReadableAndLeavesNoHiddenFile() throws Exception {
    long renames = vfs.calls("rename");
    Path f = mnt.resolve("doomed.txt");
    Files.writeString(f, "still here");
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
      Files.delete(f);
      ByteBuffer b = ByteBuffer.allocate(64);
      ch.read(b, 0);
      assertThat(new String(b.array(), 0, b.position(), StandardCharsets.UTF_8)).isEqualTo("still here");
      // fstat(2) of the descriptor: stat of /proc/self/fd/N reaches the inode with a GETATTR that carries no file
      // handle; libfuse answers it by the hidden name (ENOENT/ESTALE under hard_remove)
      Path fd = openDescriptorOf("doomed.txt");
      assertThat(Files.getAttribute(fd, "unix:nlink")).isEqualTo(0);
      assertThat(Files.getAttribute(fd, "unix:size")).isEqualTo(10L);
      try (var s = Files.list(mnt)) {
        assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".fuse_hidden"));
      }
      assertThat(m.hiddenFiles()).isEqualTo(1);
    }
    try (var s = Files.list(mnt)) {
      assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".fuse_hidden"));
    }
    // RELEASE is asynchronous to close(2)
    assertThat(Slowdown.waitUntil(() -> m.hiddenFiles() == 0, Duration.ofSeconds(5))).isTrue();
    assertThat(vfs.calls("rename")).isEqualTo(renames);
  }

  /**
   * Issue 21, D6: a user's rename of an open file onto a name of libfuse's hidden form (one with libfuse's node id and
   * counter digits too) moves the file: listed and readable under the new name, before and after the close.
   */
  @Test
  void aUsersRenameOfAnOpenFileOntoAHiddenLookingNameMovesIt() throws Exception {
    for (String name : List.of(".fuse_hidden00000000000000aa", ".fuse_hidden0000000200000001")) {
      Path f = mnt.resolve("v.txt");
      Path to = mnt.resolve(name);
      Files.writeString(f, "data " + name);
      long renames = vfs.calls("rename");
      try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
        Files.move(f, to); // rename(2)
        assertThat(vfs.calls("rename")).isEqualTo(renames + 1);
        assertThat(Files.readString(to)).isEqualTo("data " + name);
        try (var s = Files.list(mnt)) {
          assertThat(s.map(p -> p.getFileName().toString()).toList()).contains(name).doesNotContain("v.txt");
        }
        ByteBuffer b = ByteBuffer.allocate(64);
        ch.read(b, 0);
        assertThat(new String(b.array(), 0, b.position(), StandardCharsets.UTF_8)).isEqualTo("data " + name);
      }
      assertThat(m.hiddenFiles()).isZero();
      assertThat(Files.readString(to)).isEqualTo("data " + name);
      Files.delete(to);
    }
  }

  /** /proc/self/fd/N of this process's descriptor of the unlinked file {@code name}. */
  private static Path openDescriptorOf(String name) throws Exception {
    try (var fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path p : fds.toList()) {
        try {
          if (Files.readSymbolicLink(p).toString().endsWith("/" + name + " (deleted)")) {
            return p;
          }
        } catch (java.io.IOException ignored) {
          // a descriptor closed meanwhile
        }
      }
    }
    throw new AssertionError("no descriptor of " + name);
  }

  @Test
  void concurrentWritersInMultithreadedMode() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int n = t;
        fs.add(pool.submit(() -> {
          byte[] d = random(2 * 1024 * 1024 + n, 10 + n);
          Path f = mnt.resolve("par" + n + ".bin");
          Files.write(f, d);
          assertThat(Files.readAllBytes(f)).isEqualTo(d);
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void everyOpenIsReleased() throws Exception {
    Path f = mnt.resolve("rel.txt");
    for (int i = 0; i < 20; i++) {
      Files.writeString(f, "x" + i);
      Files.readString(f);
    }
    // RELEASE is sent asynchronously after close(2)
    Slowdown.waitUntil(() -> m.openFiles() == 0 && vfs.openHandles() == 0, Duration.ofSeconds(5));
    assertThat(m.openFiles()).isZero();
    assertThat(vfs.openHandles()).isZero();
  }

  private static void writePieces(FileChannel ch, byte[] data, int from, int to, int[] pieces) throws IOException {
    int pos = from;
    for (int i = 0; pos < to; i++) {
      int len = Math.min(pieces[i % pieces.length], to - pos);
      ByteBuffer b = ByteBuffer.wrap(data, pos, len);
      while (b.hasRemaining()) {
        ch.write(b, pos + (len - b.remaining()));
      }
      pos += len;
    }
  }

  static byte[] random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static byte[] slice(byte[] a, int off, int len) {
    byte[] b = new byte[len];
    System.arraycopy(a, off, b, 0, len);
    return b;
  }

  static String sha256(byte[] data) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
  }
}
