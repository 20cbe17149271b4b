package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.writeFile;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.OpenFlags;
import org.junit.jupiter.api.Test;

/**
 * The engine's inode numbers follow an object through renames (of itself and of a directory above it) and survive a
 * restart with the same state directory (issue 12 item 2): the numbers FUSE reports as {@code st_ino}.
 */
class InodeNumbersTest extends EngineFixture {
  private long ino(String path) {
    return fs.getattr(path).ino();
  }

  private long listed(String dir, String name) {
    return fs.readdir(dir).entries().stream().filter(e -> e.name().equals(name)).map(DirEntry::attr).findFirst()
        .orElseThrow().ino();
  }

  @Test
  void aRenamedFileAndADirectoryWithChildrenKeepTheirNumbersAcrossARestart() {
    writeFile(fs, "/f.txt", "f".getBytes());
    fs.mkdir("/d", 0755, USER);
    fs.mkdir("/d/sub", 0755, USER);
    writeFile(fs, "/d/sub/g.txt", "g".getBytes());
    long f = ino("/f.txt");
    long d = ino("/d");
    long sub = ino("/d/sub");
    long g = ino("/d/sub/g.txt");
    assertThat(fs.getattr("/").ino()).isEqualTo(1);

    fs.rename("/f.txt", "/f2.txt");
    fs.rename("/d", "/e");
    assertThat(ino("/f2.txt")).isEqualTo(f);
    assertThat(listed("/", "f2.txt")).isEqualTo(f);
    assertThat(ino("/e")).isEqualTo(d);
    assertThat(ino("/e/sub")).isEqualTo(sub);
    assertThat(ino("/e/sub/g.txt")).isEqualTo(g);
    assertThat(listed("/e/sub", "g.txt")).isEqualTo(g);

    // a new file at an old name is another file: another number
    writeFile(fs, "/f.txt", "new".getBytes());
    assertThat(ino("/f.txt")).isNotEqualTo(f);

    gw.closeEngines();
    fs = gw.mount();
    assertThat(listed("/", "f2.txt")).as("after a restart").isEqualTo(f);
    assertThat(ino("/e/sub/g.txt")).isEqualTo(g);
    assertThat(ino("/e")).isEqualTo(d);
  }

  /**
   * Numbers a listing showed and nothing recorded (objects another client wrote, listed with READDIRPLUS as FUSE does,
   * never looked up) follow renames too: before, they were the hashes of the old keys, and after the rename the new
   * keys' hashes, so {@code ls -i} showed other numbers after {@code mv} (found by hand over FUSE).
   */
  @Test
  void numbersOnlyAListingShowedFollowRenamesOfTheFileAndOfDirectoriesAbove() {
    for (String k : new String[] {"d/f0", "d/f1", "d/sub/g", "top"}) {
      gw.sdk.putObject(TestGateway.BUCKET, k, new java.io.ByteArrayInputStream(k.getBytes()));
    }
    long f0 = listed("/d", "f0");
    long f1 = listed("/d", "f1");
    long sub = listed("/d", "sub");
    long g = listed("/d/sub", "g");
    long top = listed("/", "top");

    fs.rename("/top", "/top2");
    fs.rename("/d/f0", "/d/g0");
    fs.rename("/d", "/e");
    assertThat(listed("/", "top2")).as("a renamed file").isEqualTo(top);
    assertThat(listed("/e", "g0")).as("renamed, then its directory").isEqualTo(f0);
    assertThat(listed("/e", "f1")).as("below a renamed directory").isEqualTo(f1);
    assertThat(listed("/e", "sub")).isEqualTo(sub);
    assertThat(ino("/e/sub/g")).as("two levels down").isEqualTo(g);
  }

  @Test
  void anOpenFileKeepsItsNumberAfterItsNameIsUnlinked() {
    writeFile(fs, "/a.txt", "a".getBytes());
    long a = ino("/a.txt");
    fs.rename("/a.txt", "/b.txt"); // a number that is not the hash of the current key
    long b = ino("/b.txt");
    assertThat(b).isEqualTo(a);
    FileHandle h = fs.open("/b.txt", OpenFlags.READ_ONLY, USER);
    try {
      fs.unlink("/b.txt");
      assertThat(fs.fgetattr(h).ino()).isEqualTo(b);
      assertThat(fs.fgetattr(h).nlink()).isZero();
    } finally {
      fs.release(h);
    }
  }
}
