package io.ossgw.core.util;

import static org.assertj.core.api.Assertions.assertThat;

import com.aliyun.oss.common.utils.CRC64;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Our CRC-64/XZ against the check value and against aliyun-sdk-oss's own CRC64 on random data. */
class Crc64Test {

  private static long sdk(byte[] b, int off, int len) {
    CRC64 c = new CRC64();
    c.update(b, off, len);
    return c.getValue();
  }

  @Test
  void knownVectors() {
    byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
    assertThat(Crc64.of(check, 0, check.length)).isEqualTo(0x995DC9BBDF1939FAL);
    assertThat(Crc64.of(new byte[0], 0, 0)).isZero();
    assertThat(sdk(check, 0, check.length)).isEqualTo(0x995DC9BBDF1939FAL);
  }

  @Test
  void matchesTheSdkOnRandomDataAtEveryLengthAndOffset() {
    SplittableRandom rnd = new SplittableRandom(14);
    byte[] data = new byte[70_000];
    rnd.nextBytes(data);
    for (int len = 0; len < 300; len++) {
      int off = rnd.nextInt(64);
      assertThat(Crc64.of(data, off, len)).as("len %d off %d", len, off).isEqualTo(sdk(data, off, len));
    }
    for (int i = 0; i < 50; i++) {
      int off = rnd.nextInt(1000);
      int len = rnd.nextInt(data.length - off);
      long want = sdk(data, off, len);
      assertThat(Crc64.of(data, off, len)).isEqualTo(want);
      // direct buffers take the ByteBuffer path; heap buffers with an offset the array path
      ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).position(off).limit(off + len);
      assertThat(Crc64.update(0, direct)).isEqualTo(want);
      assertThat(direct.position()).isEqualTo(off);
      assertThat(Crc64.update(0, ByteBuffer.wrap(data, off, len).slice())).isEqualTo(want);
    }
  }

  @Test
  void updateContinuesAndCombineJoinsPieces() {
    SplittableRandom rnd = new SplittableRandom(15);
    byte[] data = new byte[1 << 20];
    rnd.nextBytes(data);
    long whole = sdk(data, 0, data.length);
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length + 3).position(3).put(data).position(3);
    assertThat(Crc64.update(0, direct)).isEqualTo(whole);
    assertThat(Crc64.of(data, 0, data.length)).isEqualTo(whole);
    for (int i = 0; i < 40; i++) {
      int cut = rnd.nextInt(data.length + 1);
      long a = Crc64.of(data, 0, cut);
      long b = Crc64.of(data, cut, data.length - cut);
      assertThat(Crc64.update(a, data, cut, data.length - cut)).isEqualTo(whole);
      assertThat(Crc64.combine(a, b, data.length - cut)).isEqualTo(whole);
      assertThat(Crc64.combine(a, b, data.length - cut)).isEqualTo(CRC64.combine(a, b, data.length - cut));
    }
    assertThat(Crc64.combine(whole, 0, 0)).isEqualTo(whole);
  }

  /** The table method stays right on its own: machines without ISA-L and short runs use it. */
  @Test
  void tableMethodMatchesTheSdk() {
    SplittableRandom rnd = new SplittableRandom(16);
    byte[] data = new byte[300_000];
    rnd.nextBytes(data);
    for (int i = 0; i < 30; i++) {
      int off = rnd.nextInt(1000);
      int len = rnd.nextInt(data.length - off);
      long want = sdk(data, off, len);
      assertThat(Crc64.tableUpdate(0, data, off, len)).isEqualTo(want);
      ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).position(off).limit(off + len);
      assertThat(Crc64.tableUpdate(0, direct)).isEqualTo(want);
    }
  }

  /**
   * Where libisal2 is installed (the container image and the CI machines install it) the CRC of a run of 256 bytes
   * or more is ISA-L's; it agrees with the SDK on heap arrays, direct and read-only buffers, and across the pieces
   * each downcall is cut into.
   */
  @Test
  void isaLWhereInstalledAgreesWithTheSdk() {
    boolean installed = java.util.stream.Stream.of("/usr/lib/x86_64-linux-gnu/libisal.so.2", "/usr/lib64/libisal.so.2",
        "/usr/lib/libisal.so.2", "/usr/local/lib/libisal.so.2").anyMatch(f -> java.nio.file.Files.exists(java.nio.file.Path.of(f)));
    org.junit.jupiter.api.Assumptions.assumeTrue(installed, "libisal2 not installed");
    assertThat(Crc64.implementation()).isEqualTo("isal");
    SplittableRandom rnd = new SplittableRandom(17);
    byte[] data = new byte[IsalCrc64.PIECE * 2 + 12_345];
    rnd.nextBytes(data);
    long whole = sdk(data, 0, data.length);
    assertThat(Crc64.of(data, 0, data.length)).isEqualTo(whole);
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length + 5).position(5).put(data).position(5);
    assertThat(Crc64.update(0, direct.asReadOnlyBuffer())).isEqualTo(whole);
    assertThat(Crc64.update(0, direct)).isEqualTo(whole);
    assertThat(direct.position()).isEqualTo(5);
    assertThat(Crc64.update(0, ByteBuffer.wrap(data).asReadOnlyBuffer())).isEqualTo(whole);
    for (int i = 0; i < 40; i++) {
      int off = rnd.nextInt(5000);
      int len = 256 + rnd.nextInt(100_000);
      long seed = Crc64.of(data, 0, off);
      assertThat(Crc64.update(seed, data, off, len)).isEqualTo(sdk(data, 0, off + len));
    }
  }
}
