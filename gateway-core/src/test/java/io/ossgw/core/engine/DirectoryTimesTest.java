package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.writeFile;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FileType;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import java.io.ByteArrayInputStream;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A directory's mtime/ctime move when its entries change (POSIX), through the engine every front end shares, against
 * the OSS emulator: SEMANTICS.md "Directory times".
 */
class DirectoryTimesTest extends EngineFixture {
  /** Runs {@code change} and checks it advanced both times of {@code dir} to at least the time it started. */
  private void assertAdvances(String dir, Runnable change) {
    FileAttr before = fs.getattr(dir);
    Instant started = Instant.now();
    change.run();
    FileAttr after = fs.getattr(dir);
    assertThat(after.mtime()).isAfter(before.mtime()).isAfterOrEqualTo(started);
    assertThat(after.ctime()).isAfter(before.ctime()).isAfterOrEqualTo(started);
    if (dir.equals("/")) {
      return;
    }
    DirEntry listed = fs.readdir(VPathsParent.of(dir)).entries().stream()
        .filter(e -> e.name().equals(dir.substring(dir.lastIndexOf('/') + 1))).findFirst().orElseThrow();
    assertThat(listed.attr().mtime()).isEqualTo(after.mtime()); // readdir-plus shows the same times
    assertThat(listed.attr().ctime()).isEqualTo(after.ctime());
  }

  @Test
  void everyChangeOfEntriesAdvancesTheParentsMtimeAndCtime() {
    fs.mkdir("/d", 0755, USER);
    assertAdvances("/d", () -> {
      FileHandle h = fs.create("/d/f", 0644, OpenFlags.READ_WRITE, true, USER);
      fs.release(h);
    });
    assertAdvances("/d", () -> fs.mkdir("/d/sub", 0755, USER));
    assertAdvances("/d", () -> fs.symlink("f", "/d/link", USER));
    assertAdvances("/d", () -> fs.mknod("/d/fifo", FileType.FIFO, 0644, 0, USER));
    assertAdvances("/d", () -> fs.unlink("/d/link"));
    assertAdvances("/d", () -> fs.rmdir("/d/sub"));
    assertAdvances("/", () -> fs.mkdir("/e", 0755, USER)); // the mount root too
  }

  @Test
  void implicitDirectoryWithoutMarkerAdvancesToo() {
    gw.sdk.putObject(BUCKET, "imp/x", new ByteArrayInputStream(new byte[1]));
    assertAdvances("/imp", () -> writeFile(fs, "/imp/y", new byte[1]));
  }

  @Test
  void renameBetweenTwoDirectoriesAdvancesBoth() {
    fs.mkdir("/a", 0755, USER);
    fs.mkdir("/b", 0755, USER);
    writeFile(fs, "/a/f", new byte[3]);
    FileAttr b0 = fs.getattr("/b");
    assertAdvances("/a", () -> fs.rename("/a/f", "/b/f"));
    assertThat(fs.getattr("/b").mtime()).isAfter(b0.mtime()).isEqualTo(fs.getattr("/a").mtime());
    assertThat(fs.getattr("/b").ctime()).isAfter(b0.ctime());
  }

  @Test
  void renamedDirectoryKeepsItsChangeTime() {
    fs.mkdir("/a", 0755, USER);
    writeFile(fs, "/a/f", new byte[3]);
    Instant changed = fs.getattr("/a").mtime();
    fs.rename("/a", "/c");
    assertThat(fs.getattr("/c").mtime()).isAfterOrEqualTo(changed);
  }

  @Test
  void explicitMtimeIsKeptUntilTheNextChange() {
    fs.mkdir("/d", 0755, USER);
    writeFile(fs, "/d/f", new byte[1]);
    Instant old = Instant.parse("2001-02-03T04:05:06.123456789Z");
    FileAttr set = fs.setattr("/d", SetAttr.times(null, old), null, USER);
    assertThat(set.mtime()).isEqualTo(old);
    assertThat(fs.getattr("/d").mtime()).isEqualTo(old);
    assertThat(fs.readdir("/").entries()).filteredOn(e -> e.name().equals("d"))
        .singleElement().extracting(e -> e.attr().mtime()).isEqualTo(old);
    Instant beforeUnlink = Instant.now();
    fs.unlink("/d/f");
    assertThat(fs.getattr("/d").mtime()).isAfterOrEqualTo(beforeUnlink);
  }

  @Test
  void changeTimesAreInMemoryOnly() {
    fs.mkdir("/d", 0755, USER);
    Instant stored = fs.getattr("/d").mtime();
    writeFile(fs, "/d/f", new byte[1]);
    assertThat(fs.getattr("/d").mtime()).isAfter(stored);
    gw.closeEngines();
    fs = gw.mount(); // a restart: the marker's stored mtime again (no CopyObject per change to persist it)
    assertThat(fs.getattr("/d").mtime()).isEqualTo(stored);
  }

  /** The parent of a path (the test's own, so it does not depend on the engine's helper it exercises). */
  private static final class VPathsParent {
    static String of(String path) {
      int i = path.lastIndexOf('/');
      return i <= 0 ? "/" : path.substring(0, i);
    }
  }
}
