package io.ossgw.jmh;

import com.aliyun.oss.common.utils.CRC64;
import io.ossgw.core.util.Crc64;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * CRC-64/XZ of one buffer ({@code size} bytes, the SDK's 4 KiB body reads up to a 1 MiB FUSE write): ossgw's
 * slicing-by-16 {@link Crc64} on a heap array and on a direct buffer, against aliyun-sdk-oss 3.18.5's byte-at-a-time
 * {@code CRC64} that checked every upload before (issue 14). Score in µs per operation; MB/s = size / score.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Crc64Benchmark {
  @Param({"4096", "1048576"})
  int size;

  byte[] heap;
  ByteBuffer direct;

  @Setup
  public void setup() {
    heap = new byte[size];
    new SplittableRandom(1).nextBytes(heap);
    direct = ByteBuffer.allocateDirect(size).put(heap).flip();
  }

  @Benchmark
  public long ossgwHeap() {
    return Crc64.of(heap, 0, size);
  }

  @Benchmark
  public long ossgwDirect() {
    return Crc64.update(0, direct);
  }

  @Benchmark
  public long sdk() {
    CRC64 c = new CRC64();
    c.update(heap, 0, size);
    return c.getValue();
  }
}
