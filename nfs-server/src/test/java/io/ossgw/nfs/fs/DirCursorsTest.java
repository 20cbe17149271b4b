package io.ossgw.nfs.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** READDIR positions: cookies, resumption across replies, re-reads, unknown verifiers, old cookies of huge listings. */
class DirCursorsTest {
  /** Hands out the positions p{from}..p{to-1} in one reply; returns the last cookie. */
  private static long reply(DirCursors.Page p, int from, int to) {
    long cookie = 0;
    for (int i = from; i < to; i++) {
      cookie = p.cookieOf(String.format("p%07d", i));
    }
    p.end();
    return cookie;
  }

  @Test
  void aReplyResumesAfterThePositionOfTheLastCookie() {
    DirCursors c = new DirCursors(1 << 20, Duration.ofMinutes(1));
    DirCursors.Page p = c.start(1, 2, 0, 0);
    assertThat(p.startCookie).isEqualTo(DirCursors.DOT);
    assertThat(p.after).isNull();
    long last = reply(p, 0, 3);
    assertThat(last).isEqualTo(DirCursors.FIRST + 2);
    DirCursors.Page p2 = c.start(1, 2, last, p.verifier);
    assertThat(p2.verifier).isEqualTo(p.verifier);
    assertThat(p2.after).isEqualTo("p0000002");
    assertThat(p2.skip).isZero();
    assertThat(p2.cookieOf("p0000003")).isEqualTo(DirCursors.FIRST + 3);
    reply(p2, 4, 7);
    // any cookie of the last reply resumes exactly (a client re-reading part of it)
    DirCursors.Page mid = c.start(1, 2, DirCursors.FIRST + 4, p.verifier);
    assertThat(mid.after).isEqualTo("p0000004");
    assertThat(mid.skip).isZero();
    mid.end();
    // one of an earlier reply from the checkpoint before it (every 256th entry, the first included)
    DirCursors.Page older = c.start(1, 2, DirCursors.FIRST + 1, p.verifier);
    assertThat(older.after).isEqualTo("p0000000");
    assertThat(older.skip).isEqualTo(1);
    // asking the first entries again gives the same cookies
    DirCursors.Page again = c.start(1, 2, DirCursors.DOTDOT, p.verifier);
    assertThat(again.after).isNull();
    assertThat(again.cookieOf("p0000000")).isEqualTo(DirCursors.FIRST);
  }

  @Test
  void anUnknownVerifierContinuesByPosition() {
    DirCursors c = new DirCursors(1 << 20, Duration.ofMinutes(1));
    DirCursors.Page p = c.start(1, 2, 4, 0xdeadbeefL); // cookie 4 = after the 2nd entry
    assertThat(p.after).isNull();
    assertThat(p.skip).isEqualTo(2);
    assertThat(p.verifier).isNotEqualTo(0xdeadbeefL);
    assertThat(p.cookieOf("c")).isEqualTo(DirCursors.FIRST + 2);
    p.end();
    // a verifier of another directory is not used
    DirCursors.Page other = c.start(1, 3, 4, p.verifier);
    assertThat(other.verifier).isNotEqualTo(p.verifier);
  }

  /**
   * A session of a huge listing keeps the last reply and thinned checkpoints, not every position: a cookie from long
   * ago resumes after the checkpoint before it and skips the entries in between.
   */
  @Test
  void aHugeListingKeepsBoundedCheckpointsAndOldCookiesResumeFromThem() {
    DirCursors c = new DirCursors(1 << 20, Duration.ofMinutes(1));
    DirCursors.Page p = c.start(1, 2, 0, 0);
    long verifier = p.verifier;
    long last = reply(p, 0, 50);
    for (int from = 50; from < 300_000; from += 50) {
      DirCursors.Page next = c.start(1, 2, last, verifier);
      assertThat(next.after).isEqualTo(String.format("p%07d", from - 1));
      last = reply(next, from, from + 50);
    }
    // the last reply's cookies are exact
    DirCursors.Page recent = c.start(1, 2, DirCursors.FIRST + 299_990, verifier);
    assertThat(recent.after).isEqualTo("p0299990");
    assertThat(recent.skip).isZero();
    DirCursors.Page old = c.start(1, 2, DirCursors.FIRST + 123_456, verifier);
    assertThat(old.verifier).isEqualTo(verifier);
    long checkpoint = Long.parseLong(old.after.substring(1));
    assertThat(checkpoint % 256).isZero();
    // at most 1,024 checkpoints over 300,000 entries, evenly spaced: one every 512 entries
    assertThat(checkpoint).isLessThanOrEqualTo(123_456).isGreaterThan(123_456 - 2 * 300_000 / DirCursors.MAX_CHECKPOINTS);
    assertThat(checkpoint + old.skip).isEqualTo(123_456);
    assertThat(old.cookieOf("whatever")).isEqualTo(DirCursors.FIRST + 123_457);
  }

  @Test
  void ordersLikeUtf8Bytes() {
    // U+FF5E sorts before U+1F600 in UTF-8 (and code points), after it in UTF-16
    String bmp = "\uff5e";
    String astral = new String(Character.toChars(0x1f600));
    assertThat(DirCursors.compare(bmp, astral)).isNegative();
    assertThat(bmp.compareTo(astral)).isPositive();
    assertThat(DirCursors.compare("zz", bmp)).isNegative();
    assertThat(DirCursors.compare("a-b", "a/")).as("'-' sorts before '/'").isNegative();
  }
}
