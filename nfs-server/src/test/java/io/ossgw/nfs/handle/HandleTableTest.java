package io.ossgw.nfs.handle;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.xdr.Nfs3;
import io.ossgw.nfs.xdr.nfs_fh3;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The persistent fileid table and the handle format. */
class HandleTableTest {
  @TempDir
  Path dir;

  @Test
  void entriesAndTheSecretSurviveReopening() {
    long[] a;
    byte[] secret;
    try (InodeTable t = InodeTable.open(dir)) {
      a = t.idOf(7, "/a/b", 1234);
      assertThat(a[0]).isEqualTo(1234);
      assertThat(a[1]).isEqualTo(1);
      assertThat(t.idOf(7, "/a/b", 999)).containsExactly(a);
      secret = t.secret();
      t.commit();
    }
    try (InodeTable t = InodeTable.open(dir)) {
      assertThat(t.resolve(7, 1234)).isEqualTo(new InodeTable.Entry(1, "/a/b"));
      assertThat(t.secret()).isEqualTo(secret);
      assertThat(t.resolve(8, 1234)).as("exports are separate").isNull();
      assertThat(t.resolve(7, InodeTable.ROOT).path()).isEqualTo("/");
    }
  }

  @Test
  void renamesMoveSubtreesAndRemovalsBumpTheGeneration() {
    try (InodeTable t = InodeTable.open(null)) {
      long d = t.idOf(1, "/d", 10)[0];
      long f = t.idOf(1, "/d/f", 11)[0];
      long g = t.idOf(1, "/d/sub/g", 12)[0];
      long other = t.idOf(1, "/d2", 13)[0]; // a sibling sharing the prefix "/d"
      t.renamed(1, "/d", "/e");
      assertThat(t.resolve(1, d).path()).isEqualTo("/e");
      assertThat(t.resolve(1, f).path()).isEqualTo("/e/f");
      assertThat(t.resolve(1, g).path()).isEqualTo("/e/sub/g");
      assertThat(t.resolve(1, other).path()).isEqualTo("/d2");
      // a new object at the old path gets another fileid (the old one moved away)
      long fresh = t.idOf(1, "/d", 10)[0];
      assertThat(fresh).isNotEqualTo(d).isGreaterThan(1);
      // removal: tombstone; the same path again reuses the fileid with the next generation
      t.removed(1, "/e/f");
      assertThat(t.resolve(1, f)).isEqualTo(new InodeTable.Entry(1, null));
      long[] again = t.idOf(1, "/e/f", 11);
      assertThat(again).containsExactly(f, 2);
      // rename onto an existing path: the replaced fileid becomes a tombstone
      long x = t.idOf(1, "/x", 20)[0];
      long y = t.idOf(1, "/y", 21)[0];
      t.renamed(1, "/x", "/y");
      assertThat(t.resolve(1, y).path()).isNull();
      assertThat(t.resolve(1, x).path()).isEqualTo("/y");
    }
  }

  @Test
  void handlesAreShortCarryTheirFieldsAndAreAuthenticated() {
    byte[] secret = new byte[16];
    secret[3] = 9;
    FileHandles h = new FileHandles(secret);
    nfs_fh3 fh = h.encode(0x12345678, 0x0102030405060708L, 3);
    assertThat(fh.data().length).isEqualTo(FileHandles.LENGTH).isLessThanOrEqualTo(Nfs3.NFS3_FHSIZE);
    assertThat(h.decode(fh)).isEqualTo(new FileHandles.Decoded(0x12345678, 0x0102030405060708L, 3));
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
