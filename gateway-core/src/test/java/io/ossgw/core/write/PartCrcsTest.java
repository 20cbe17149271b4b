package io.ossgw.core.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.util.Crc64;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link PartCrcs}: the CRC-64 of each streamed part from the writes that filled it, in any write sizes (across part
 * boundaries, heap or direct buffers, the buffers' positions left alone), and none once the writes stop being the
 * in-order writer's: a rewrite, a hole, a truncate below the tracked end.
 */
class PartCrcsTest {
  static final long PART = 1000;

  static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** Feeds {@code data[from, to)} at its own offsets in pieces of {@code piece} bytes. */
  static void feed(PartCrcs c, byte[] data, int from, int to, int piece, boolean direct) {
    for (int off = from; off < to; off += piece) {
      int n = Math.min(piece, to - off);
      ByteBuffer b = direct ? ByteBuffer.allocateDirect(n).put(data, off, n).flip() : ByteBuffer.wrap(data, off, n);
      int pos = b.position();
      c.onWrite(off, b);
      assertThat(b.position()).isEqualTo(pos);
    }
  }

  @Test
  void everyPartsCrcIsTheCrcOfItsBytesWhateverTheWriteSizes() {
    byte[] data = random(3500, 1);
    for (int piece : new int[] {1, 7, 333, 999, 1000, 1001, 2500, 3500}) {
      for (boolean direct : new boolean[] {false, true}) {
        PartCrcs c = new PartCrcs(PART);
        feed(c, data, 0, data.length, piece, direct);
        for (int p = 1; p <= 3; p++) {
          assertThat(c.crcOf(p, (p - 1) * PART, PART)).as("piece %d part %d", piece, p)
              .isEqualTo(Crc64.of(data, (int) ((p - 1) * PART), (int) PART));
        }
        assertThat(c.crcOf(4, 3000, 500)).as("the tail is no whole part").isNull();
        assertThat(c.crcOf(2, 999, PART)).as("another range").isNull();
        assertThat(c.covered()).isEqualTo(3500);
      }
    }
  }

  @Test
  void partSizesFollowTheStreamingPlan() {
    assertThat(PartPlan.streamingPartSize(PART, 1001)).isEqualTo(2 * PART);
    byte[] data = random((int) (1000 * PART + 2 * PART), 2);
    PartCrcs c = new PartCrcs(PART);
    feed(c, data, 0, data.length, 4096, false);
    assertThat(c.crcOf(1000, 999 * PART, PART)).isEqualTo(Crc64.of(data, (int) (999 * PART), (int) PART));
    assertThat(c.crcOf(1001, 1000 * PART, 2 * PART)).isEqualTo(Crc64.of(data, (int) (1000 * PART), (int) (2 * PART)));
  }

  @Test
  void aRewriteOrAHoleStopsIt() {
    byte[] data = random(3000, 3);
    PartCrcs rewrite = new PartCrcs(PART);
    feed(rewrite, data, 0, 1500, 500, false);
    rewrite.onWrite(1200, ByteBuffer.wrap(data, 1200, 10));
    feed(rewrite, data, 1500, 3000, 500, false);
    assertThat(rewrite.crcOf(1, 0, PART)).isNull();
    assertThat(rewrite.crcOf(2, PART, PART)).isNull();
    assertThat(rewrite.covered()).isZero();

    PartCrcs hole = new PartCrcs(PART);
    feed(hole, data, 0, 500, 500, false);
    feed(hole, data, 600, 3000, 600, false);
    assertThat(hole.crcOf(1, 0, PART)).isNull();
  }

  @Test
  void aTruncateBelowTheTrackedEndStopsItAndOneAboveDoesNot() {
    byte[] data = random(2000, 4);
    PartCrcs above = new PartCrcs(PART);
    feed(above, data, 0, 1500, 500, false);
    above.onTruncate(1500);
    above.onTruncate(5000);
    feed(above, data, 1500, 2000, 500, false);
    assertThat(above.crcOf(2, PART, PART)).isEqualTo(Crc64.of(data, 1000, 1000));

    PartCrcs below = new PartCrcs(PART);
    feed(below, data, 0, 1500, 500, false);
    below.onTruncate(1499);
    feed(below, data, 1499, 2000, 501, false);
    assertThat(below.crcOf(1, 0, PART)).isNull();
    assertThat(below.crcOf(2, PART, PART)).isNull();
  }
}
