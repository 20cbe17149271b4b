package io.ossgw.nfs.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.nfs.rpc.ReceiveMemory.Piece;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.glassfish.grizzly.Buffer;
import org.junit.jupiter.api.Test;

/**
 * Record marking over socket reads of any size (RFC 5531 §11): records of every size class, in one or several
 * fragments, arriving in pieces cut anywhere (inside fragment headers too), come out byte-exact, without a copy, and
 * every piece goes back to the pool exactly when the stream and the records holding it are done with it.
 */
class RecordStreamTest {
  private final ReceiveMemory memory = new ReceiveMemory(64L << 20);

  /** The wire form of one record: its bytes in fragments of at most {@code frag} bytes. */
  private static byte[] marked(byte[] body, int frag) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int at = 0;
    do {
      int n = Math.min(frag, body.length - at);
      boolean last = at + n == body.length;
      int marker = n | (last ? 0x80000000 : 0);
      out.write(marker >>> 24);
      out.write(marker >>> 16);
      out.write(marker >>> 8);
      out.write(marker);
      out.write(body, at, n);
      at += n;
    } while (at < body.length);
    return out.toByteArray();
  }

  private Piece piece(byte[] wire, int from, int to) {
    Piece p = (Piece) memory.allocateAtLeast(ReceiveMemory.PIECE);
    p.put(wire, from, to - from);
    p.trim(); // as Grizzly does after a read
    return p;
  }

  private static byte[] bytesOf(RecordStream.Record r) {
    Buffer b = r.xdr().asBuffer();
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  @Test
  void recordsOfEverySizeComeOutWholeWhateverTheReadsCut() {
    Random rnd = new Random(7);
    int[] sizes = {4, 8, 4092, 4096, 4100, 65536, 1 << 20, (1 << 20) + 12, 200_000};
    for (int frag : new int[] {Integer.MAX_VALUE, 4096, 1000, 65537}) {
      List<byte[]> bodies = new ArrayList<>();
      ByteArrayOutputStream wire = new ByteArrayOutputStream();
      for (int size : sizes) {
        byte[] body = new byte[size];
        rnd.nextBytes(body);
        bodies.add(body);
        wire.writeBytes(marked(body, frag));
      }
      byte[] all = wire.toByteArray();
      RecordStream s = new RecordStream(memory, 2 << 20, 2048);
      List<Piece> pieces = new ArrayList<>();
      List<RecordStream.Record> records = new ArrayList<>();
      int at = 0;
      while (at < all.length) {
        int n = Math.min(all.length - at, 1 + rnd.nextInt(rnd.nextBoolean() ? 7 : ReceiveMemory.PIECE));
        Piece p = piece(all, at, at + n);
        pieces.add(p);
        s.append(p);
        at += n;
        RecordStream.Record r;
        while ((r = next(s)) != null) {
          records.add(r);
        }
      }
      assertThat(s.buffered()).isZero();
      assertThat(records).hasSize(bodies.size());
      for (int i = 0; i < bodies.size(); i++) {
        assertThat(bytesOf(records.get(i))).as("record %d, fragments of %d", i, frag).isEqualTo(bodies.get(i));
      }
      // the stream has let go of everything; the records still hold their pieces until released
      for (RecordStream.Record r : records) {
        r.release();
        r.release(); // a second release does nothing
      }
      for (Piece p : pieces) {
        assertThat(p.refs()).as("piece references after everything ended").isZero();
      }
    }
  }

  @Test
  void aRecordOverTheLimitIsRefusedFromItsHeader() {
    RecordStream s = new RecordStream(memory, 1000, 4);
    byte[] wire = marked(new byte[10], 10);
    wire[1] = 0x10; // announces far more than 1000 bytes
    s.append(piece(wire, 0, 4));
    assertThatThrownBy(s::next).isInstanceOf(RecordStream.OversizeException.class);
    byte[] manyFragments = marked(new byte[10], 2);
    RecordStream t = new RecordStream(memory, 1000, 4);
    t.append(piece(manyFragments, 0, manyFragments.length));
    assertThatThrownBy(t::next).isInstanceOf(RecordStream.OversizeException.class);
  }

  @Test
  void closingGivesBackWhatWasNotHandedOut() {
    RecordStream s = new RecordStream(memory, 1 << 20, 16);
    byte[] wire = marked(new byte[5000], 5000);
    Piece first = piece(wire, 0, 3000);
    s.append(first);
    assertThat(next(s)).isNull();
    assertThat(first.refs()).isEqualTo(1);
    s.close();
    assertThat(first.refs()).isZero();
    Piece late = piece(wire, 3000, wire.length);
    s.append(late); // bytes that arrive after the close are dropped at once
    assertThat(late.refs()).isZero();
  }

  @Test
  void aPieceSharedByTwoRecordsReturnsAfterBoth() {
    RecordStream s = new RecordStream(memory, 1 << 20, 16);
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    wire.writeBytes(marked(new byte[100], 100));
    wire.writeBytes(marked(new byte[200], 200));
    byte[] all = wire.toByteArray();
    Piece p = piece(all, 0, all.length);
    s.append(p);
    RecordStream.Record a = next(s);
    RecordStream.Record b = next(s);
    assertThat(a).isNotNull();
    assertThat(b).isNotNull();
    assertThat(p.refs()).as("two records; the stream has consumed it").isEqualTo(2);
    a.release();
    assertThat(p.refs()).isEqualTo(1);
    b.release();
    assertThat(p.refs()).isZero();
    ByteBuffer reused = memory.allocateAtLeast(1).toByteBuffer();
    assertThat(reused.capacity()).isEqualTo(ReceiveMemory.PIECE);
  }

  private static RecordStream.Record next(RecordStream s) {
    try {
      return s.next();
    } catch (RecordStream.OversizeException e) {
      throw new AssertionError(e);
    }
  }
}
