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
}
