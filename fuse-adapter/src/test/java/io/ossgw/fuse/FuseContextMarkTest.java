package io.ossgw.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import org.junit.jupiter.api.Test;

/** The mark kept in a {@code struct fuse_context}, here one in our own memory standing in for libfuse's. */
class FuseContextMarkTest {
  private static final long PID = 16;

  @Test
  void aMarkIsSeenOnceForItsPathAndThePidComesBack() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment ctx = a.allocate(40, 8);
      ctx.set(ValueLayout.JAVA_INT, PID, 4_194_303); // the largest pid Linux gives (PID_MAX_LIMIT - 1)
      FuseContextMark m = new FuseContextMark(MethodHandles.constant(MemorySegment.class, ctx));
      assertThat(m.take("/d/.fuse_hidden0000000200000001")).isFalse(); // nothing marked
      m.set("/d/.fuse_hidden0000000200000001");
      assertThat(ctx.get(ValueLayout.JAVA_INT, PID)).isNegative();
      assertThat(m.take("/d/.fuse_hidden0000000200000001")).isTrue();
      assertThat(ctx.get(ValueLayout.JAVA_INT, PID)).isEqualTo(4_194_303);
      assertThat(m.take("/d/.fuse_hidden0000000200000001")).isFalse(); // taken
    }
  }

  @Test
  void libfuseStartingTheNextRequestClearsTheMark() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment ctx = a.allocate(40, 8);
      ctx.set(ValueLayout.JAVA_INT, PID, 1234);
      FuseContextMark m = new FuseContextMark(MethodHandles.constant(MemorySegment.class, ctx));
      m.set("/.fuse_hidden0000000200000001");
      ctx.set(ValueLayout.JAVA_INT, PID, 1234); // req_fuse_prepare: pid of the next request
      assertThat(m.take("/.fuse_hidden0000000200000001")).isFalse();
    }
  }

  @Test
  void aMarkForAnotherPathIsClearedButNotTaken() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment ctx = a.allocate(40, 8);
      ctx.set(ValueLayout.JAVA_INT, PID, 77);
      FuseContextMark m = new FuseContextMark(MethodHandles.constant(MemorySegment.class, ctx));
      String probed = "/.fuse_hidden0000000200000001";
      String other = java.util.stream.IntStream.range(2, 600)
          .mapToObj(i -> String.format("/.fuse_hidden00000002%08x", i))
          .filter(p -> FuseContextMark.hash(p) != FuseContextMark.hash(probed)).findFirst().orElseThrow();
      m.set(probed);
      assertThat(m.take(other)).isFalse();
      assertThat(ctx.get(ValueLayout.JAVA_INT, PID)).isEqualTo(77);
    }
  }

  @Test
  void outsideARequestNothingIsMarked() {
    FuseContextMark m = new FuseContextMark(MethodHandles.constant(MemorySegment.class, MemorySegment.NULL));
    m.set("/.fuse_hidden0000000200000001");
    assertThat(m.take("/.fuse_hidden0000000200000001")).isFalse();
  }
}
