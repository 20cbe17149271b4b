package io.ossgw.core.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.util.Crc64;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link PartCrcs}: the CRC-64 of each streamed part from the writes that filled it, in any write sizes (across part
 * boundaries, heap or direct buffers, the buffers' positions left alone) and in any order (an NFS client's WRITEs
 * arrive shuffled); and never a CRC that is not the one of the bytes written last: a rewrite over tracked bytes, a
 * truncate, a failed write forget what they touch, and too scattered a write order stops the tracking.
 */
class PartCrcsTest {
  static final long PART = 1000;

  static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** Writes {@code data[off, off+n)} at offset {@code off}, checking the buffer's position is left alone. */
  static void put(PartCrcs c, byte[] data, int off, int n, boolean direct) {
    ByteBuffer b = direct ? ByteBuffer.allocateDirect(n).put(data, off, n).flip() : ByteBuffer.wrap(data, off, n);
    int pos = b.position();
    c.onWrite(off, b);
    assertThat(b.position()).isEqualTo(pos);
  }

  /** Feeds {@code data[from, to)} at its own offsets in pieces of {@code piece} bytes, in order. */
  static void feed(PartCrcs c, byte[] data, int from, int to, int piece, boolean direct) {
    for (int off = from; off < to; off += piece) {
      put(c, data, off, Math.min(piece, to - off), direct);
    }
  }

  static Long crcOfPart(PartCrcs c, int partNumber) {
    return c.crcOf((partNumber - 1) * PART, PART);
  }

  static long crcOf(byte[] data, long start, long len) {
    return Crc64.of(data, (int) start, (int) len);
  }

  @Test
  void everyPartsCrcIsTheCrcOfItsBytesWhateverTheWriteSizes() {
    byte[] data = random(3500, 1);
    for (int piece : new int[] {1, 7, 333, 999, 1000, 1001, 2500, 3500}) {
      for (boolean direct : new boolean[] {false, true}) {
        PartCrcs c = new PartCrcs(PART);
        feed(c, data, 0, data.length, piece, direct);
        for (int p = 1; p <= 3; p++) {
          assertThat(crcOfPart(c, p)).as("piece %d part %d", piece, p).isEqualTo(crcOf(data, (p - 1) * PART, PART));
        }
        assertThat(c.crcOf(3000, 500)).as("the tail, written whole").isEqualTo(crcOf(data, 3000, 500));
        assertThat(c.crcOf(999, PART)).as("another range").isNull();
        assertThat(c.pending()).as("only the tail is short of a part").isEqualTo(1);
      }
    }
  }

  @Test
  void partSizesFollowTheStreamingPlan() {
    assertThat(PartPlan.streamingPartSize(PART, 1001)).isEqualTo(2 * PART);
    byte[] data = random((int) (1000 * PART + 2 * PART), 2);
    PartCrcs c = new PartCrcs(PART);
    feed(c, data, 0, data.length, 4096, false);
    assertThat(c.crcOf(999 * PART, PART)).isEqualTo(crcOf(data, 999 * PART, PART));
    assertThat(c.crcOf(1000 * PART, 2 * PART)).isEqualTo(crcOf(data, 1000 * PART, 2 * PART));
    assertThat(c.crcOf(1000 * PART, PART)).as("no part of the old size past part 1000").isNull();
  }

  @Test
  void writesInAnyOrderGiveEveryPartItsCrc() {
    byte[] data = random(5000, 3);
    for (int piece : new int[] {64, 300, 1000, 1500}) {
      List<Integer> offsets = new ArrayList<>();
      for (int off = 0; off < data.length; off += piece) {
        offsets.add(off);
      }
      Random r = new Random(piece);
      for (int from = 0; from < offsets.size(); from += 16) { // shuffled within a window of 16 in flight, as NFS
        Collections.shuffle(offsets.subList(from, Math.min(offsets.size(), from + 16)), r);
      }
      List<List<Integer>> orders = List.of(offsets, offsets.reversed());
      for (List<Integer> order : orders) {
        PartCrcs c = new PartCrcs(PART);
        for (int off : order) {
          put(c, data, off, Math.min(piece, data.length - off), r.nextBoolean());
        }
        for (int p = 1; p <= 5; p++) {
          assertThat(crcOfPart(c, p)).as("piece %d part %d", piece, p).isEqualTo(crcOf(data, (p - 1) * PART, PART));
        }
        assertThat(c.pending()).isZero();
      }
    }
  }

  @Test
  void aRewriteOverTrackedBytesForgetsThemUntilThePartIsWrittenWholeAgain() {
    byte[] data = random(2000, 4);
    PartCrcs c = new PartCrcs(PART);
    feed(c, data, 0, 600, 200, false);
    byte[] patch = random(200, 5);
    c.onWrite(500, ByteBuffer.wrap(patch)); // over [0, 600)'s end
    System.arraycopy(patch, 0, data, 500, patch.length);
    feed(c, data, 700, 2000, 300, false);
    assertThat(crcOfPart(c, 1)).as("[0, 500) was forgotten").isNull();
    assertThat(crcOfPart(c, 2)).isEqualTo(crcOf(data, PART, PART));
    feed(c, data, 0, 500, 250, false);
    assertThat(crcOfPart(c, 1)).as("whole again, with the patch").isEqualTo(crcOf(data, 0, PART));

    c.onWrite(1200, ByteBuffer.wrap(patch, 0, 10)); // a rewrite inside a whole part
    System.arraycopy(patch, 0, data, 1200, 10);
    assertThat(crcOfPart(c, 2)).isNull();
    feed(c, data, 1000, 1200, 200, false);
    feed(c, data, 1210, 2000, 790, false);
    assertThat(crcOfPart(c, 2)).isEqualTo(crcOf(data, PART, PART));
  }

  @Test
  void aTruncateForgetsTheRangesPastTheNewSize() {
    byte[] data = random(2000, 6);
    PartCrcs c = new PartCrcs(PART);
    feed(c, data, 0, 300, 300, false);
    feed(c, data, 600, 900, 300, false);
    c.onTruncate(700); // inside [600, 900)
    c.onTruncate(5000); // growing: zeros, not tracked
    Arrays.fill(data, 700, 2000, (byte) 0);
    feed(c, data, 900, 1000, 100, false);
    feed(c, data, 300, 600, 300, false);
    assertThat(crcOfPart(c, 1)).as("[600, 700) survived in the file but not in the tracking").isNull();
    feed(c, data, 600, 900, 300, false);
    assertThat(crcOfPart(c, 1)).isEqualTo(crcOf(data, 0, PART));
    c.onTruncate(PART);
    assertThat(crcOfPart(c, 1)).as("a truncate at its end leaves a part").isEqualTo(crcOf(data, 0, PART));
    c.onTruncate(PART - 1);
    assertThat(crcOfPart(c, 1)).isNull();
  }

  @Test
  void aFailedWriteForgetsItsRange() {
    byte[] data = random(1000, 7);
    PartCrcs c = new PartCrcs(PART);
    feed(c, data, 0, 1000, 100, false);
    c.onWriteFailed(450, 10);
    assertThat(crcOfPart(c, 1)).isNull();
  }

  @Test
  void tooManyScatteredRangesStopTheTrackingForGood() {
    byte[] data = random((int) (4 * PART), 8);
    PartCrcs c = new PartCrcs(PART);
    feed(c, data, 0, (int) PART, 100, false);
    for (int i = 0; i <= PartCrcs.MAX_PENDING; i++) { // every other byte of parts 2 and 3: no two ranges merge
      put(c, data, (int) PART + 2 * i, 1, false);
    }
    assertThat(crcOfPart(c, 1)).isNull();
    feed(c, data, 0, data.length, 100, false);
    assertThat(crcOfPart(c, 1)).isNull();
    assertThat(c.pending()).isZero();
  }

  /**
   * Random writes (slots of 100 bytes in a shuffled order, some rewrites at any offset), truncates, against a model
   * of the file: a CRC given is always the model's.
   */
  @Test
  void aCrcGivenIsAlwaysTheOneOfTheBytesWrittenLast() {
    Random r = new Random(9);
    int given = 0;
    for (int round = 0; round < 300; round++) {
      byte[] model = new byte[4000];
      int size = 0;
      PartCrcs c = new PartCrcs(PART);
      List<Integer> slots = new ArrayList<>();
      for (int op = 0; op < 120; op++) {
        if (slots.isEmpty()) {
          for (int off = 0; off < model.length; off += 100) {
            slots.add(off);
          }
          Collections.shuffle(slots, r);
        }
        int kind = r.nextInt(20);
        if (kind == 0) {
          int to = r.nextInt(model.length);
          c.onTruncate(to);
          Arrays.fill(model, Math.min(to, size), model.length, (byte) 0);
          size = to;
          continue;
        }
        int off = kind == 1 ? r.nextInt(model.length - 1) : slots.removeLast();
        byte[] b = random(kind == 1 ? 1 + r.nextInt(Math.min(300, model.length - off)) : 100, r.nextLong());
        System.arraycopy(b, 0, model, off, b.length);
        c.onWrite(off, ByteBuffer.wrap(b));
        size = Math.max(size, off + b.length);
        for (int p = 1; p <= 4; p++) {
          Long crc = crcOfPart(c, p);
          if (crc != null) {
            assertThat(crc).as("round %d op %d part %d", round, op, p).isEqualTo(crcOf(model, (p - 1) * PART, PART));
            given++;
          }
        }
      }
    }
    assertThat(given).as("CRCs given").isGreaterThan(1000);
  }
}
