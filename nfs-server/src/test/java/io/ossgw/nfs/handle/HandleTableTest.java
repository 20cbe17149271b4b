package io.ossgw.nfs.handle;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.xdr.Nfs3;
import io.ossgw.nfs.xdr.nfs_fh3;
import org.junit.jupiter.api.Test;

/** The handle format (the table behind it is gateway-core's InodeTable, tested there). */
class HandleTableTest {
  @Test
  void handlesAreShortCarryTheirFieldsAndAreAuthenticated() {
    byte[] secret = new byte[16];
    secret[3] = 9;
    FileHandles h = new FileHandles(secret);
    nfs_fh3 fh = h.encode(0x12345678, 0x0102030405060708L, 3);
    assertThat(fh.data().length).isEqualTo(FileHandles.LENGTH).isLessThanOrEqualTo(Nfs3.NFS3_FHSIZE);
    assertThat(h.decode(fh)).isEqualTo(new FileHandles.Decoded(0x12345678, 0x0102030405060708L, 3, 0, null));
    for (int i = 0; i < fh.data().length; i++) {
      byte[] b = fh.data().clone();
      b[i] ^= 0x10;
      assertThat(h.decode(new nfs_fh3(b))).as("byte %d flipped", i).isNull();
    }
    byte[] other = secret.clone();
    other[0] = 1;
    assertThat(new FileHandles(other).decode(fh)).as("another server's secret").isNull();
    assertThat(h.decode(new nfs_fh3(new byte[24]))).isNull();
  }

  @Test
  void namedHandlesCarryParentAndNameWithinSixtyFourBytesAndAreAuthenticated() {
    FileHandles h = new FileHandles(new byte[16]);
    String longest = "é".repeat(FileHandles.MAX_NAME / 2) + "x"; // 35 bytes of UTF-8
    nfs_fh3 fh = h.encodeNamed(7, 0x1122334455667788L, 42, longest);
    assertThat(fh.data().length).isEqualTo(Nfs3.NFS3_FHSIZE);
    assertThat(h.decode(fh)).isEqualTo(new FileHandles.Decoded(7, 0x1122334455667788L, 1, 42, longest));
    assertThat(h.encodeNamed(7, 9, 42, longest + "y")).as("a name too long for 64 bytes").isNull();
    nfs_fh3 short1 = h.encodeNamed(7, 9, 42, "a");
    assertThat(h.decode(short1).name()).isEqualTo("a");
    for (int i = 0; i < fh.data().length; i++) {
      byte[] b = fh.data().clone();
      b[i] ^= 0x10;
      assertThat(h.decode(new nfs_fh3(b))).as("byte %d flipped", i).isNull();
    }
    assertThat(h.decode(new nfs_fh3(java.util.Arrays.copyOf(fh.data(), 63)))).as("cut short").isNull();
  }

  @Test
  void sipHashMatchesTheReferenceVector() {
    // SipHash-2-4 reference vectors (vectors.h): key 00..0f; message 00..0e and the empty message
    byte[] key = new byte[16];
    for (int i = 0; i < 16; i++) {
      key[i] = (byte) i;
    }
    byte[] msg = new byte[15];
    for (int i = 0; i < 15; i++) {
      msg[i] = (byte) i;
    }
    assertThat(new SipHash(key).hash(msg, 0, 15)).isEqualTo(0xa129ca6149be45e5L);
    assertThat(new SipHash(key).hash(new byte[0], 0, 0)).isEqualTo(0x726fdb47dd0e0e31L);
  }
}
