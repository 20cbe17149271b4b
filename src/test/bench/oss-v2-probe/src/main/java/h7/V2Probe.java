package h7;

import com.aliyun.sdk.service.oss2.OSSClient;
import com.aliyun.sdk.service.oss2.credentials.StaticCredentialsProvider;
import com.aliyun.sdk.service.oss2.models.*;
import com.aliyun.sdk.service.oss2.transport.BinaryData;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.Locale;

/** alibabacloud-oss-v2 0.4.0, the same transfers as ossgw's DataPathCpuProbe: 1 GiB as 8 MiB UploadParts, 1 GiB "big" as 4 MiB ranged GETs. */
public class V2Probe {
  static final long GIB = 1L << 30;
  static final int PART = 8 << 20, RANGE = 4 << 20;
  static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  interface T { void run() throws Exception; }

  public static void main(String[] a) throws Exception {
    String endpoint = a[0];
    boolean hc4 = a.length > 1 && a[1].equals("hc4");
    OSSClient c = OSSClient.newBuilder().region("cn-hangzhou").endpoint(endpoint).usePathStyle(true).disableSsl(true)
        .credentialsProvider(new StaticCredentialsProvider("ak", "sk")).useApacheHttpClient4(hc4).retryMaxAttempts(1).build();
    Path spool = Files.createTempFile("v2probe", ".bin");
    try (FileChannel ch = FileChannel.open(spool, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer fill = ByteBuffer.allocate(1 << 20);
      for (long at = 0; at < GIB; at += fill.capacity()) {
        for (int i = 0; i < fill.capacity(); i += 8) fill.putLong(i, at + i * 0x9E3779B97F4A7C15L);
        ch.write(fill.clear(), at);
      }
      ByteBuffer dst = ByteBuffer.allocateDirect(RANGE);
      byte[] buf = new byte[64 * 1024];
      for (int round = 0; round < 3; round++) {
        measure("v2" + (hc4 ? "-hc4" : "") + " put", round, () -> {
          String id = c.initiateMultipartUpload(InitiateMultipartUploadRequest.newBuilder().bucket("probe").key("up-v2").build())
              .initiateMultipartUpload().uploadId();
          for (int p = 0; p < GIB / PART; p++) {
            long start = (long) p * PART;
            InputStream in = Channels.newInputStream(ch.position(start));
            c.uploadPart(UploadPartRequest.newBuilder().bucket("probe").key("up-v2").uploadId(id).partNumber((long) p + 1)
                .contentLength((long) PART).body(BinaryData.fromStream(new java.io.BufferedInputStream(
                    new BoundedStream(in, PART), 256 * 1024), (long) PART)).build());
          }
          c.abortMultipartUpload(AbortMultipartUploadRequest.newBuilder().bucket("probe").key("up-v2").uploadId(id).build());
        });
        measure("v2" + (hc4 ? "-hc4" : "") + " get", round, () -> {
          for (long off = 0; off < GIB; off += RANGE) {
            try (GetObjectResult r = c.getObject(GetObjectRequest.newBuilder().bucket("probe").key("big")
                .range("bytes=" + off + "-" + (off + RANGE - 1)).rangeBehavior("standard").build())) {
              InputStream in = r.body();
              dst.clear();
              int n;
              while ((n = in.read(buf)) > 0) dst.put(buf, 0, n);
            }
          }
        });
      }
    } finally {
      Files.deleteIfExists(spool);
      c.close();
    }
  }

  static final class BoundedStream extends java.io.FilterInputStream {
    long left;
    BoundedStream(InputStream in, long n) { super(in); left = n; }
    @Override public void close() {}
    @Override public int read() throws java.io.IOException { if (left <= 0) return -1; int b = in.read(); if (b >= 0) left--; return b; }
    @Override public int read(byte[] b, int o, int l) throws java.io.IOException {
      if (left <= 0) return -1; int n = in.read(b, o, (int) Math.min(l, left)); if (n > 0) left -= n; return n; }
  }

  static void measure(String what, int round, T t) throws Exception {
    var threads = ManagementFactory.getThreadMXBean();
    long cpu0 = OS.getProcessCpuTime(), th0 = threads.getCurrentThreadCpuTime(), w0 = System.nanoTime();
    t.run();
    double cpu = (OS.getProcessCpuTime() - cpu0) / 1e9, th = (threads.getCurrentThreadCpuTime() - th0) / 1e9,
        wall = (System.nanoTime() - w0) / 1e9;
    System.out.printf(Locale.ROOT, "PROBE %-22s round %d: process %.2f CPU-s/GiB, thread %.2f, wall %.2f s (%.0f MB/s), load %.1f%n",
        what, round + 1, cpu, th, wall, GIB / wall / 1e6, OS.getSystemLoadAverage());
  }
}
