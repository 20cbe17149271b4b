package io.ossgw.jmh;

import com.aliyun.oss.OSS;
import com.aliyun.oss.model.CompleteMultipartUploadRequest;
import com.aliyun.oss.model.InitiateMultipartUploadRequest;
import com.aliyun.oss.model.ObjectMetadata;
import com.aliyun.oss.model.PartETag;
import com.aliyun.oss.model.UploadPartRequest;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Puts the objects a benchmark reads, directly with aliyun-sdk-oss (not through the gateway, so the gateway has never
 * seen them): {@code count} objects named {@code prefix + i} ({@code i} = 0..count-1) of {@code size} bytes,
 * {@code threads} at a time. Objects of at least {@code part} bytes are multipart uploads of {@code part}-byte parts
 * (one part at a time per object); smaller ones are one PutObject. Bodies are pseudo-random (seed 1), so a reader
 * cannot be helped by compression or zero pages. No {@code x-oss-meta-*}: the objects look like ones another OSS tool
 * wrote.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.ossgw.jmh.SeedObjects ENDPOINT BUCKET AK SK prefix=P count=N [size=0
 * part=10m threads=32]}. Prints {@code seeded N objects in S s}.
 */
public final class SeedObjects {
  private SeedObjects() {}

  public static void main(String[] args) throws Exception {
    String bucket = args[1];
    String prefix = SdkCeiling.arg(args, "prefix", "seed/");
    int count = Integer.parseInt(SdkCeiling.arg(args, "count", "1"));
    long size = SdkCeiling.parseSize(SdkCeiling.arg(args, "size", "0"));
    int part = (int) SdkCeiling.parseSize(SdkCeiling.arg(args, "part", "10m"));
    int threads = Integer.parseInt(SdkCeiling.arg(args, "threads", "32"));
    byte[] data = new byte[(int) Math.min(size, part)];
    new Random(1).nextBytes(data);
    OSS oss = SdkCeiling.client(args[0], args[2], args[3]);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long t0 = System.nanoTime();
    try {
      SdkCeiling.runAll(pool, count, i -> put(oss, bucket, prefix + i, size, part, data));
    } finally {
      pool.shutdown();
      oss.shutdown();
    }
    System.out.printf(Locale.ROOT, "seeded %d objects in %.3f s%n", count, (System.nanoTime() - t0) / 1e9);
  }

  private static void put(OSS oss, String bucket, String key, long size, int part, byte[] data) {
    if (size < part) {
      ObjectMetadata md = new ObjectMetadata();
      md.setContentLength(size);
      oss.putObject(bucket, key, new ByteArrayInputStream(data, 0, (int) size), md);
      return;
    }
    String id = oss.initiateMultipartUpload(new InitiateMultipartUploadRequest(bucket, key)).getUploadId();
    List<PartETag> etags = new ArrayList<>();
    int n = 1;
    for (long off = 0; off < size; off += part, n++) {
      long len = Math.min(part, size - off);
      etags.add(oss.uploadPart(new UploadPartRequest(bucket, key, id, n, new ByteArrayInputStream(data, 0, (int) len),
          len)).getPartETag());
    }
    oss.completeMultipartUpload(new CompleteMultipartUploadRequest(bucket, key, id, etags));
  }
}
