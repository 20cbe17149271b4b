package io.ossgw.core.inode;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The persistent inode table NFS's handles and the engine share. */
class InodeTableTest {
  @TempDir
  Path dir;

  @Test
  void entriesAndTheSecretSurviveReopening() {
    long[] a;
    byte[] secret;
    try (InodeTable t = InodeTable.open(dir.resolve("nfs-handles.mv"))) {
      a = t.idOf(7, "/a/b", 1234);
      assertThat(a[0]).isEqualTo(1234);
      assertThat(a[1]).isEqualTo(1);
      assertThat(t.idOf(7, "/a/b", 999)).containsExactly(a);
      secret = t.secret();
      t.commit();
    }
    try (InodeTable t = InodeTable.open(dir.resolve("nfs-handles.mv"))) {
      assertThat(t.resolve(7, 1234)).isEqualTo(new InodeTable.Entry(1, "/a/b"));
      assertThat(t.secret()).isEqualTo(secret);
      assertThat(t.resolve(8, 1234)).as("exports are separate").isNull();
      assertThat(t.resolve(7, InodeTable.ROOT).path()).isEqualTo("/");
    }
  }

  @Test
  void aTableAnotherProcessHoldsIsRefusedNamingTheStateDirectory() {
    try (InodeTable t = InodeTable.open(dir.resolve("nfs-handles.mv"))) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> InodeTable.open(dir.resolve("nfs-handles.mv")))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("is locked")
          .hasMessageContaining("another ossgw process uses this state directory").hasMessageContaining("OSSGW_STATE_DIR");
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

  /**
   * A directory of thousands of entries (many MVMap pages) moves whole, to a name sorting after it and to one sorting
   * before it: the move walks a cursor over the entries while it rewrites them, which must neither skip nor repeat.
   */
  @Test
  void aRenameMovesEveryEntryOfABigSubtreeWhicheverWayTheNewNameSorts() {
    try (InodeTable t = InodeTable.open(null)) {
      int n = 5_000;
      long[] ids = new long[n];
      for (int i = 0; i < n; i++) {
        ids[i] = t.idOf(0, "/m/d" + (i % 7) + "/f" + i, 1000 + i)[0];
      }
      long[] seen = {0, 0};
      for (String[] step : new String[][] {{"/m", "/z"}, {"/z", "/a"}}) {
        t.renamed(0, step[0], step[1]);
        for (int i = 0; i < n; i++) {
          assertThat(t.resolve(0, ids[i])).isEqualTo(new InodeTable.Entry(1, step[1] + "/d" + (i % 7) + "/f" + i));
        }
      }
      t.forEach((space, number, e) -> seen[e.path() != null && e.path().startsWith("/a/") ? 0 : 1]++);
      assertThat(seen).containsExactly(n, 0); // every number is at its new path, none left or doubled
    }
  }

  @Test
  void numberOfAgreesWithIdOfForLiveRemovedAndColonNames() {
    try (InodeTable t = InodeTable.open(null)) {
      assertThat(t.numberOf(0, "/a:b", 50)).isEqualTo(50);
      assertThat(t.numberOf(0, "/a:b", 51)).isEqualTo(50);
      assertThat(t.numberOf(0, "/", 7)).isEqualTo(InodeTable.ROOT);
      t.renamed(0, "/a:b", "/c");
      assertThat(t.numberOf(0, "/c", 60)).isEqualTo(50);
      long fresh = t.numberOf(0, "/a:b", 50); // the old name again: 50 is taken by /c
      assertThat(fresh).isNotEqualTo(50);
      t.removed(0, "/c");
      assertThat(t.known(0, "/c")).isNull();
      assertThat(t.numberOf(0, "/c", 50)).isEqualTo(50); // the tombstone's number, next generation
      assertThat(t.idOf(0, "/c", 50)[1]).isEqualTo(2);
    }
  }

  @Test
  void numberOfAnswersAskedBeforeARenameOrRemovalAreNotReusedAfterIt() {
    try (InodeTable t = InodeTable.open(null)) {
      // asked (and so remembered) before the directory above them moves
      assertThat(t.numberOf(0, "/d", 30)).isEqualTo(30);
      assertThat(t.numberOf(0, "/d/f", 31)).isEqualTo(31);
      t.renamed(0, "/d", "/e");
      assertThat(t.numberOf(0, "/e/f", 99)).isEqualTo(31);
      assertThat(t.numberOf(0, "/d/f", 31)).isNotEqualTo(31); // 31 moved to /e/f
      // asked before its removal; the number then goes to another path
      assertThat(t.numberOf(0, "/p", 70)).isEqualTo(70);
      t.removed(0, "/p");
      assertThat(t.idOf(0, "/q", 70)).containsExactly(70, 2);
      assertThat(t.numberOf(0, "/p", 70)).isNotEqualTo(70);
      // the same path in two name spaces
      assertThat(t.numberOf(1, "/e/f", 40)).isEqualTo(40);
      assertThat(t.numberOf(0, "/e/f", 40)).isEqualTo(31);
    }
  }
}
