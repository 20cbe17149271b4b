package io.ossgw.core.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Random sequences of file operations through the engine, held against {@link FsModel}: each operation must succeed or
 * fail with the errno POSIX gives in the model's state, after each one the paths it touched must read back as the model
 * says (through the same engine, caches and all), and after a remount (a new engine) and at the end the whole tree,
 * through the engine and in the bucket itself (keys, bytes, directory markers), must be the model's. Files go from
 * empty to 11 MB (multipart uploads with {@code multipart_size=5}, UploadPartCopy renames above
 * {@code singlepart_copy_limit=5}), written at the start, at the end, past the end (a hole) and in the middle, and up
 * to two of them kept open, written and read through their handles while they are renamed, replaced or unlinked. Half the
 * runs go through {@link FaultyStore}: a transient failure every 7th request attempt, before the request is sent or
 * after OSS carried it out, which the engine's retries must hide. SEMANTICS.md "Durability and consistency" is the
 * contract: the bytes are in OSS when close returns.
 *
 * <p>Each sequence comes from a seed ({@value #RUNS} seeds by default; {@code -Dossgw.model.runs=N} for more,
 * {@code -Dossgw.model.seed=S} for one). A failing sequence is cut down, one operation at a time, to the shortest that
 * still fails, and the failure names the seed and that sequence.
 */
class ReferenceModelTest {
  static final List<String> NAMES = List.of("a", "b", "a/c", "f", "g", "a/f", "a/g", "b/f", "a/c/f");

  sealed interface Op {}

  /** open(O_RDWR|O_CREAT), one write of a size picked by {@code size}, at a place picked by {@code where}, close. */
  record Write(int path, int where, int size, long seed) implements Op {}

  record Truncate(int path, int how) implements Op {}

  record Unlink(int path) implements Op {}

  record Mkdir(int path) implements Op {}

  record Rmdir(int path) implements Op {}

  record Rename(int from, int to) implements Op {}

  /** The engine closed (a clean unmount, every open handle closed first) and a new one started: caches gone. */
  record Remount() implements Op {}

  /** open(O_RDWR|O_CREAT) kept open in handle slot {@code slot} (0 or 1; a slot in use is closed first). */
  record Open(int slot, int path) implements Op {}

  /** A write through the handle in {@code slot}, wherever its file is now (renamed, replaced or unlinked). */
  record WriteOpen(int slot, int where, int size, long seed) implements Op {}

  /** close(2) of the handle in {@code slot}: its file's bytes are in OSS when it returns, if it still has a name. */
  record Close(int slot) implements Op {}

  /** fsync(2) of the handle in {@code slot}: the bucket holds its file's bytes at once, if it still has a name. */
  record Fsync(int slot) implements Op {}

  /**
   * A read through the handle in {@code slot}, at a place picked by {@code where}: its own file's bytes, wherever that
   * file is now; once unlinked or replaced, EIO is allowed for bytes the handle never staged (SEMANTICS.md, unlink).
   */
  record ReadOpen(int slot, int where) implements Op {}

  private static final int RUNS = 40;

  @TestFactory
  Stream<DynamicTest> randomSequences() {
    String one = System.getProperty("ossgw.model.seed");
    LongStream seeds = one != null ? LongStream.of(Long.parseLong(one))
        : LongStream.rangeClosed(1, Long.getLong("ossgw.model.runs", RUNS));
    return seeds.mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
      List<Op> ops = sequence(new SplittableRandom(seed));
      boolean faults = seed % 2 == 0;
      AssertionError failure = failure(ops, faults);
      if (failure != null) {
        List<Op> shortest = shortest(ops, faults);
        throw new AssertionError("seed " + seed + (faults ? ", with faults" : "") + ": " + failure.getMessage()
            + "\nshortest failing sequence: " + shortest + "\nits failure: " + failure(shortest, faults), failure);
      }
    }));
  }

  /**
   * 4 to 30 operations, writes the most frequent, then renames, mkdirs and handles kept open. Half the opens are of
   * the name written last, half the renames go onto the name opened last and half the reads through a handle use the
   * slot opened last, so that a file in OSS is opened, replaced and read through its handle often enough to matter.
   */
  static List<Op> sequence(SplittableRandom r) {
    List<Op> ops = new ArrayList<>();
    int n = 4 + r.nextInt(27);
    int lastPath = -1;
    int lastSlot = 0;
    int lastWritten = -1;
    for (int i = 0; i < n; i++) {
      int path = r.nextInt(NAMES.size());
      int slot = r.nextInt(2);
      int kind = r.nextInt(33);
      boolean aimed = r.nextBoolean();
      if (kind < 8) {
        lastWritten = path;
      } else if (kind >= 22 && kind < 24) {
        path = aimed && lastWritten >= 0 ? lastWritten : path;
        lastPath = path;
        lastSlot = slot;
      }
      ops.add(kind < 8 ? new Write(path, r.nextInt(4), r.nextInt(100), r.nextLong())
          : kind < 10 ? new Truncate(path, r.nextInt(4))
          : kind < 12 ? new Unlink(path)
          : kind < 16 ? new Mkdir(path)
          : kind < 17 ? new Rmdir(path)
          : kind < 21 ? new Rename(path, aimed && lastPath >= 0 ? lastPath : r.nextInt(NAMES.size()))
          : kind < 22 ? new Remount()
          : kind < 24 ? new Open(slot, path)
          : kind < 27 ? new WriteOpen(slot, r.nextInt(4), r.nextInt(100), r.nextLong())
          : kind < 28 ? new Close(slot)
          : kind < 29 ? new Fsync(slot)
          : new ReadOpen(aimed ? lastSlot : slot, r.nextInt(4)));
    }
    return ops;
  }

  /** Leaves out one operation at a time while the sequence still fails (at most 100 reruns). */
  private static List<Op> shortest(List<Op> ops, boolean faults) throws IOException {
    List<Op> current = new ArrayList<>(ops);
    int reruns = 0;
    for (int i = current.size() - 1; i >= 0 && reruns < 100; i--) {
      List<Op> without = new ArrayList<>(current);
      without.remove(i);
      reruns++;
      if (failure(without, faults) != null) {
        current = without;
      }
    }
    return current;
  }

  /** Runs a sequence on a new emulator and engine; the assertion it failed, or null. */
  private static AssertionError failure(List<Op> ops, boolean faults) throws IOException {
    Path state = Files.createTempDirectory("ossgw-model");
    try (TestGateway gw = new TestGateway(state)) {
      ModelRun run = new ModelRun(gw, faults);
      for (Op op : ops) {
        run.apply(op);
      }
      run.remount();
      run.checkAll();
      return null;
    } catch (AssertionError e) {
      return e;
    } catch (RuntimeException e) { // an unexpected errno or a failed request: a failure to cut down like the others
      return new AssertionError(e.toString(), e);
    } finally {
      try (Stream<Path> s = Files.walk(state)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

}
