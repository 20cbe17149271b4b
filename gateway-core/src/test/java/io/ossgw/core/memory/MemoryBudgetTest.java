package io.ossgw.core.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The budget stays within what the JVM can allocate, and a refused direct allocation is a fallback, not an error. */
class MemoryBudgetTest {
  @Test
  void hotspotSizesParse() {
    assertThat(MemoryBudget.parseSize("256m")).isEqualTo(256L << 20);
    assertThat(MemoryBudget.parseSize("2G")).isEqualTo(2L << 30);
    assertThat(MemoryBudget.parseSize("4096")).isEqualTo(4096);
    assertThat(MemoryBudget.parseSize("lots")).isEqualTo(-1);
    assertThat(MemoryBudget.parseSize("")).isEqualTo(-1);
  }

  @Test
  void capacityNeverExceedsHalfOfTheJvmsDirectMemory() {
    long half = MemoryBudget.maxDirectMemory() / 2;
    assertThat(MemoryBudget.capacity(Long.MAX_VALUE / 4, -1)).isLessThanOrEqualTo(half);
    assertThat(MemoryBudget.capacity(Long.MAX_VALUE / 4, Long.MAX_VALUE / 4)).isEqualTo(half);
    // memory_limit is the process's memory: the buffers get a quarter of it
    assertThat(MemoryBudget.capacity(64L << 20, 128L << 20)).isEqualTo(Math.min(32L << 20, half));
  }

  @Test
  void inAJvmWith32MiBOfDirectMemoryTheBudgetIs16MiBAndAnOverlargeBudgetFallsBackInsteadOfThrowing() throws Exception {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:MaxDirectMemorySize=32m", "-cp", System.getProperty("java.class.path"), Child.class.getName())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(p.waitFor()).as(out).isZero();
    String[] f = out.split(" ");
    assertThat(Long.parseLong(f[0])).as("default budget").isEqualTo(16L << 20);
    long buffers = Long.parseLong(f[1]);
    assertThat(buffers).as("4 MiB buffers before the JVM refused").isBetween(1L, 8L);
    assertThat(Long.parseLong(f[2])).as("bytes the budget counts").isEqualTo(buffers * (4L << 20));
  }

  /** Runs in a JVM with -XX:MaxDirectMemorySize=32m; prints "capacity buffers used". */
  public static final class Child {
    public static void main(String[] args) {
      MemoryBudget budget = new MemoryBudget(1L << 30); // as if memory_limit were far above what the JVM allows
      BufferPool pool = new BufferPool(4 << 20, budget);
      java.util.List<java.nio.ByteBuffer> held = new java.util.ArrayList<>(); // in use: the GC cannot free them
      for (java.nio.ByteBuffer b = pool.tryAcquire(); b != null; b = pool.tryAcquire()) {
        held.add(b);
      }
      System.out.println(MemoryBudget.capacity(1L << 30, -1) + " " + held.size() + " " + budget.used());
    }
  }
}
