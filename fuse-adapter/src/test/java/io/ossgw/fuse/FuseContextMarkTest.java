package io.ossgw.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The mark kept in a {@code struct fuse_context}, here one in our own memory standing in for libfuse's. */
class FuseContextMarkTest {
  private static final long PID = 16;
  private static final String PROBED = "/d/.fuse_hidden0000000200000001";

  private final Arena arena = Arena.ofConfined();
  private final MemorySegment ctx = arena.allocate(40, 8);
  private final FuseContextMark mark = new FuseContextMark(MethodHandles.constant(MemorySegment.class, ctx));

  @AfterEach
  void free() {
    arena.close();
  }

  private int pid() {
    return ctx.get(ValueLayout.JAVA_INT, PID);
  }

  /** What libfuse's req_fuse_prepare does at the start of each request: the caller's pid (among others). */
  private void nextRequest(int pid) {
    ctx.set(ValueLayout.JAVA_INT, PID, pid);
  }

  @Test
  void aMarkIsSeenOnceForItsPathAndThePidComesBack() {
    nextRequest(4_194_303); // the largest pid Linux gives (PID_MAX_LIMIT - 1)
    assertThat(mark.take(PROBED)).isFalse(); // nothing marked
    mark.set(PROBED);
    assertThat(pid()).isNegative();
    assertThat(mark.take(PROBED)).isTrue();
    assertThat(pid()).isEqualTo(4_194_303);
    assertThat(mark.take(PROBED)).isFalse(); // taken
  }

  @Test
  void libfuseStartingTheNextRequestClearsTheMark() {
    nextRequest(1234);
    mark.set(PROBED);
    nextRequest(1234);
    assertThat(mark.take(PROBED)).isFalse();
  }

  @Test
  void aMarkForAnotherPathIsClearedButNotTaken() {
    nextRequest(77);
    String other = IntStream.range(2, 600).mapToObj(i -> String.format("/d/.fuse_hidden00000002%08x", i))
        .filter(p -> FuseContextMark.hash(p) != FuseContextMark.hash(PROBED)).findFirst().orElseThrow();
    mark.set(PROBED);
    assertThat(mark.take(other)).isFalse();
    assertThat(pid()).isEqualTo(77);
  }

  @Test
  void outsideARequestNothingIsMarked() {
    FuseContextMark none = new FuseContextMark(MethodHandles.constant(MemorySegment.class, MemorySegment.NULL));
    none.set(PROBED);
    assertThat(none.take(PROBED)).isFalse();
  }
}
