package io.ossgw.jmh;

import io.ossgw.core.memory.BufferPool;
import io.ossgw.core.memory.MemoryBudget;
import java.nio.ByteBuffer;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The read-ahead buffer pool: each operation takes one pooled off-heap chunk ({@code chunkSize} bytes, the
 * direct_read_chunk_size), writes one 128 KiB FUSE read's worth into it and gives it back — the per-chunk overhead of
 * read-ahead. {@code allocate} is the same without the pool (a fresh direct buffer each time), the cost the pool saves.
 * The budget (256 MiB) is never exhausted here; exhaustion is a functional test.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@Threads(2)
public class BufferPoolBenchmark {
  @Param({"1048576", "4194304"})
  int chunkSize;

  BufferPool pool;
  final byte[] fuseRead = new byte[128 * 1024];

  @Setup
  public void setup() {
    pool = new BufferPool(chunkSize, new MemoryBudget(256L << 20));
  }

  @Benchmark
  public int pooled() {
    ByteBuffer b = pool.tryAcquire();
    b.put(fuseRead);
    int pos = b.position();
    pool.release(b);
    return pos;
  }

  @Benchmark
  public int allocate() {
    ByteBuffer b = ByteBuffer.allocateDirect(chunkSize);
    b.put(fuseRead);
    return b.position();
  }
}
