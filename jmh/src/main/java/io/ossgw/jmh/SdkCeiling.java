package io.ossgw.jmh;

import com.aliyun.oss.ClientBuilderConfiguration;
import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSClientBuilder;
import com.aliyun.oss.common.auth.DefaultCredentialProvider;
import com.aliyun.oss.common.comm.SignVersion;
import com.aliyun.oss.model.CompleteMultipartUploadRequest;
import com.aliyun.oss.model.GetObjectRequest;
import com.aliyun.oss.model.InitiateMultipartUploadRequest;
import com.aliyun.oss.model.OSSObject;
import com.aliyun.oss.model.ObjectMetadata;
import com.aliyun.oss.model.PartETag;
import com.aliyun.oss.model.UploadPartRequest;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The raw-SDK ceiling every gateway figure in docs/benchmarks.md is compared with: the same transfer done directly with
 * aliyun-sdk-oss 3.18.5 from one JVM to the same endpoint, in the same run.
 *
 * <p>Workloads (each prints one line {@code name MB/s seconds [ops/s] cpu=SECONDS}, the last being this JVM's CPU time
 * since the previous line):
 * <ul>
 *   <li>{@code put}: one object of {@code size} bytes as a multipart upload of {@code part}-byte parts, {@code parallel}
 *       in flight (what the gateway does for a large file);
 *   <li>{@code get}: the same object read sequentially with {@code parallel} ranged GETs of {@code chunk} bytes in flight
 *       (what its read-ahead does);
 *   <li>{@code small}: {@code count} objects of {@code smallSize} bytes written, then read back, by {@code threads}
 *       threads (PutObject / GetObject each);
 *   <li>{@code rndget} (with {@code rnd=SECONDS}): one thread reading random {@code block}-byte ranges of the large
 *       object for that long (what a random 16 KiB reader costs at best);
 *   <li>{@code many-get} (with {@code many=N}): the existing objects {@code manyPrefix}0..N-1 read concurrently, one
 *       streaming GetObject each (what N sequential readers of large files cost at best).
 * </ul>
 * Usage: {@code java -cp benchmarks.jar io.ossgw.jmh.SdkCeiling ENDPOINT BUCKET AK SK [size=1g part=10m chunk=4m
 * parallel=5 count=0 smallSize=131072 threads=128 rnd=0 block=16k many=0 manyPrefix=dr/f]}; {@code size=0} skips
 * put/get.
 */
public final class SdkCeiling {
  private SdkCeiling() {}

  public static void main(String[] args) throws Exception {
    String endpoint = args[0];
    String bucket = args[1];
    long size = parseSize(arg(args, "size", "1g"));
    long part = parseSize(arg(args, "part", "10m"));
    int chunk = (int) parseSize(arg(args, "chunk", "4m"));
    int parallel = Integer.parseInt(arg(args, "parallel", "5"));
    int count = Integer.parseInt(arg(args, "count", "0"));
    int smallSize = (int) parseSize(arg(args, "smallSize", "131072"));
    int threads = Integer.parseInt(arg(args, "threads", "128"));
    int rndSeconds = Integer.parseInt(arg(args, "rnd", "0"));
    int block = (int) parseSize(arg(args, "block", "16k"));
    int many = Integer.parseInt(arg(args, "many", "0"));
    String manyPrefix = arg(args, "manyPrefix", "dr/f");
    OSS oss = client(endpoint, args[2], args[3]);
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(Math.max(parallel, threads), many));
    cpuSinceLastReport(); // start-up (class loading, client set-up) is not any workload's cost
    try {
      if (size > 0) {
        byte[] partData = new byte[(int) part];
        new java.util.Random(1).nextBytes(partData);
        long t0 = System.nanoTime();
        String id = oss.initiateMultipartUpload(new InitiateMultipartUploadRequest(bucket, "sdk-ceiling.bin")).getUploadId();
        List<Future<PartETag>> parts = new ArrayList<>();
        int n = 1;
        for (long off = 0; off < size; off += part, n++) {
          long len = Math.min(part, size - off);
          int number = n;
          parts.add(pool.submit(() -> oss.uploadPart(new UploadPartRequest(bucket, "sdk-ceiling.bin", id, number,
              new ByteArrayInputStream(partData, 0, (int) len), len)).getPartETag()));
        }
        List<PartETag> etags = new ArrayList<>();
        for (Future<PartETag> f : parts) {
          etags.add(f.get());
        }
        oss.completeMultipartUpload(new CompleteMultipartUploadRequest(bucket, "sdk-ceiling.bin", id, etags));
        report("put", size, t0);
        t0 = System.nanoTime();
        List<Future<Long>> reads = new ArrayList<>();
        for (long off = 0; off < size; off += chunk) {
          long start = off;
          long end = Math.min(size, off + chunk) - 1;
          reads.add(pool.submit(() -> {
            GetObjectRequest req = new GetObjectRequest(bucket, "sdk-ceiling.bin");
            req.setRange(start, end);
            byte[] buf = new byte[64 * 1024];
            long got = 0;
            try (OSSObject o = oss.getObject(req); InputStream in = o.getObjectContent()) {
              for (int k; (k = in.read(buf)) > 0; ) {
                got += k;
              }
            }
            return got;
          }));
          if (reads.size() >= parallel) {
            reads.remove(0).get();
          }
        }
        for (Future<Long> f : reads) {
          f.get();
        }
        report("get", size, t0);
        if (rndSeconds > 0) {
          randomGets(oss, bucket, size, block, rndSeconds);
        }
        oss.deleteObject(bucket, "sdk-ceiling.bin");
      }
      if (count > 0) {
        byte[] body = new byte[smallSize];
        long t0 = System.nanoTime();
        runAll(pool, count, i -> {
          ObjectMetadata md = new ObjectMetadata();
          md.setContentLength(smallSize);
          oss.putObject(bucket, "sdk-small/" + i, new ByteArrayInputStream(body), md);
        });
        report("small-put", (long) count * smallSize, t0);
        t0 = System.nanoTime();
        runAll(pool, count, i -> {
          try (OSSObject o = oss.getObject(bucket, "sdk-small/" + i); InputStream in = o.getObjectContent()) {
            in.readAllBytes();
          }
        });
        report("small-get", (long) count * smallSize, t0);
      }
      if (many > 0) {
        AtomicLong got = new AtomicLong();
        long t0 = System.nanoTime();
        runAll(pool, many, i -> {
          byte[] buf = new byte[64 * 1024];
          try (OSSObject o = oss.getObject(bucket, manyPrefix + i); InputStream in = o.getObjectContent()) {
            for (int k; (k = in.read(buf)) > 0; ) {
              got.addAndGet(k);
            }
          }
        });
        report("many-get", got.get(), t0);
      }
    } finally {
      pool.shutdown();
      oss.shutdown();
    }
  }

  /**
   * One thread reading {@code block}-byte ranges at random block-aligned offsets of {@code sdk-ceiling.bin} for
   * {@code seconds}: the latency-bound ceiling of a random-read workload (sysbench rndrd). Prints {@code rndget MB/s
   * seconds ops/s}.
   */
  private static void randomGets(OSS oss, String bucket, long size, int block, int seconds) throws Exception {
    java.util.Random rnd = new java.util.Random(7);
    long blocks = size / block;
    long ops = 0;
    long t0 = System.nanoTime();
    long end = t0 + seconds * 1_000_000_000L;
    byte[] buf = new byte[block];
    while (System.nanoTime() < end) {
      long off = (long) (rnd.nextDouble() * blocks) * block;
      GetObjectRequest req = new GetObjectRequest(bucket, "sdk-ceiling.bin");
      req.setRange(off, off + block - 1);
      try (OSSObject o = oss.getObject(req); InputStream in = o.getObjectContent()) {
        in.readNBytes(buf, 0, block);
      }
      ops++;
    }
    double s = (System.nanoTime() - t0) / 1e9;
    System.out.printf(Locale.ROOT, "rndget %.1f %.3f %.1f %s%n", ops * (double) block / 1e6 / s, s, ops / s,
        cpuSinceLastReport());
  }

  /** A V4-signing client for {@code endpoint} (region cn-hangzhou) with up to 512 connections. */
  static OSS client(String endpoint, String ak, String sk) {
    ClientBuilderConfiguration conf = new ClientBuilderConfiguration();
    conf.setSignatureVersion(SignVersion.V4);
    conf.setMaxConnections(512);
    return OSSClientBuilder.create().endpoint(endpoint).credentialsProvider(new DefaultCredentialProvider(ak, sk))
        .clientConfiguration(conf).region("cn-hangzhou").build();
  }

  interface IndexedTask {
    void run(int i) throws Exception;
  }

  static void runAll(ExecutorService pool, int count, IndexedTask task) throws Exception {
    List<Future<?>> fs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int k = i;
      fs.add(pool.submit(() -> {
        task.run(k);
        return null;
      }));
    }
    for (Future<?> f : fs) {
      f.get();
    }
  }

  private static void report(String name, long bytes, long t0) {
    double s = (System.nanoTime() - t0) / 1e9;
    System.out.printf(Locale.ROOT, "%s %.1f %.3f %s%n", name, bytes / 1e6 / s, s, cpuSinceLastReport());
  }

  private static long lastCpuNanos;

  /**
   * {@code cpu=SECONDS}: CPU time this JVM used since the previous report (all threads, JIT and GC included), so a
   * gateway figure can be compared with the ceiling's CPU cost per byte, not only its speed.
   */
  static synchronized String cpuSinceLastReport() {
    long now = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
    double s = (now - lastCpuNanos) / 1e9;
    lastCpuNanos = now;
    return String.format(Locale.ROOT, "cpu=%.2f", s);
  }

  static String arg(String[] args, String name, String def) {
    for (String a : args) {
      if (a.startsWith(name + "=")) {
        return a.substring(name.length() + 1);
      }
    }
    return def;
  }

  static long parseSize(String s) {
    String v = s.strip().toLowerCase(Locale.ROOT);
    long mult = switch (v.charAt(v.length() - 1)) {
      case 'k' -> 1L << 10;
      case 'm' -> 1L << 20;
      case 'g' -> 1L << 30;
      default -> 1;
    };
    return Long.parseLong(mult == 1 ? v : v.substring(0, v.length() - 1)) * mult;
  }
}
