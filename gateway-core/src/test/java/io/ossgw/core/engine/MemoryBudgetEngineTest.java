package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.memory.MemoryBudget;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one memory budget of read-ahead through the whole engine: {@code memory_limit} sets it, and 32 handles reading
 * at once never hold more than it (readers beyond it fall back to ranged GETs) and all read the right bytes.
 */
class MemoryBudgetEngineTest extends GatewayFixture {
  final List<Engine> engines = new ArrayList<>();

  /** Runs before the fixture closes the gateway. */
  @AfterEach
  void closeEngines() {
    engines.forEach(Engine::close);
  }

  private Engine engine(String... options) {
    Engine e = Engine.start(gw.config("", options));
    engines.add(e);
    return e;
  }

  @Test
  void memoryLimitSetsTheBudgetAndPrefetchLimitCapsIt() {
    // memory_limit is the process's memory: the buffers get a quarter of it
    assertThat(engine("memory_limit=200").memoryBudget().capacity()).isEqualTo(50L << 20);
    assertThat(engine("memory_limit=4096", "direct_read_prefetch_limit=256").memoryBudget().capacity())
        .isEqualTo(256L << 20);
    assertThat(engine().memoryBudget().capacity()).isEqualTo(MemoryBudget.defaultCapacity(1024L << 20));
    assertThatThrownBy(() -> gw.config("", "memory_limit=100")).hasMessageContaining("memory_limit");
  }

  @Test
  void thirtyTwoConcurrentReadersStayWithinTheBudget() throws Exception {
    byte[] data = new byte[3 * 1024 * 1024 + 4321];
    new Random(5).nextBytes(data);
    gw.sdk.putObject(BUCKET, "shared.bin", new ByteArrayInputStream(data));
    Engine e = engine("memory_limit=128", "direct_read_chunk_size=1");
    VirtualFileSystem fs = e.fileSystem();
    fs.getattr("/shared.bin");
    ExecutorService pool = Executors.newFixedThreadPool(32);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        results.add(pool.submit(() -> Arrays.equals(TestGateway.readFile(fs, "/shared.bin"), data)));
      }
      for (Future<Boolean> r : results) {
        assertThat(r.get()).isTrue();
      }
    } finally {
      pool.shutdown();
    }
    MemoryBudget budget = e.memoryBudget();
    assertThat(budget.peak()).isPositive().isLessThanOrEqualTo(budget.capacity());
  }
}
