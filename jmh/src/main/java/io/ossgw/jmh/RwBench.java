package io.ossgw.jmh;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many small files through a mounted file system, in the spirit of the ossfs 2.0 {@code rw-bench} figure (128 threads,
 * 128 KB files): {@code threads} platform threads write {@code count} files of {@code size} bytes, or read them back.
 * Written in Java rather than Python (the GIL would make 128 Python threads the bottleneck on 2 cores) or Go (one more
 * toolchain for the harness); each file is one {@code open/write.../close} or {@code open/read.../close} on a
 * {@link FileChannel}, so the mount sees exactly one FUSE create/open, the 128 KiB writes/reads and one release per
 * file.
 *
 * <p>Thread {@code t} owns the files {@code i} with {@code i % threads == t}, in directory {@code DIR/d<t>} (created
 * before the clock starts), so threads do not contend for one directory's lock in the kernel. Every file starts with
 * its index (8 bytes, big-endian), which the read phase checks together with the length: a wrong or short file fails
 * the run.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.ossgw.jmh.RwBench DIR phase=write|read [count=10000 size=131072
 * threads=128]}. Prints one line {@code phase MB/s seconds files/s} (MB = 10^6 bytes); exit code 1 on any I/O error.
 */
public final class RwBench {
  private RwBench() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    String phase = SdkCeiling.arg(args, "phase", "write");
    int count = Integer.parseInt(SdkCeiling.arg(args, "count", "10000"));
    int size = (int) SdkCeiling.parseSize(SdkCeiling.arg(args, "size", "131072"));
    int threads = Integer.parseInt(SdkCeiling.arg(args, "threads", "128"));
    if (size < 8) {
      throw new IllegalArgumentException("size must be at least 8 bytes");
    }
    if (phase.equals("write")) {
      for (int t = 0; t < threads; t++) {
        Files.createDirectories(dir.resolve("d" + t));
      }
    }
    AtomicLong bytes = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long t0 = System.nanoTime();
    try {
      List<Future<?>> fs = new ArrayList<>(threads);
      for (int t = 0; t < threads; t++) {
        int owner = t;
        fs.add(pool.submit(() -> {
          ByteBuffer buf = ByteBuffer.allocate(size);
          for (int i = owner; i < count; i += threads) {
            Path file = dir.resolve("d" + owner).resolve("f" + i);
            bytes.addAndGet(phase.equals("write") ? write(file, buf, i) : read(file, buf, i));
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    double s = (System.nanoTime() - t0) / 1e9;
    System.out.printf(Locale.ROOT, "%s %.1f %.3f %.1f%n", phase, bytes.get() / 1e6 / s, s, count / s);
  }

  private static long write(Path file, ByteBuffer buf, long index) throws IOException {
    buf.clear();
    buf.putLong(0, index);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE)) {
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
    }
    return buf.capacity();
  }

  private static long read(Path file, ByteBuffer buf, long index) throws IOException {
    buf.clear();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      while (buf.hasRemaining()) {
        if (ch.read(buf) < 0) {
          break;
        }
      }
      if (buf.hasRemaining() || ch.read(ByteBuffer.allocate(1)) >= 0) {
        throw new IOException(file + ": length differs from " + buf.capacity());
      }
    }
    if (buf.getLong(0) != index) {
      throw new IOException(file + ": starts with " + buf.getLong(0) + ", expected " + index);
    }
    return buf.capacity();
  }
}
