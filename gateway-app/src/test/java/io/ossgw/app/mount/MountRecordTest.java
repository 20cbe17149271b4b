package io.ossgw.app.mount;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.fuse.MountIdentity;
import io.ossgw.fuse.MountInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The record `ossgw umount` uses to find and wait for the process of a mount. */
class MountRecordTest {
  @TempDir
  Path runtime;

  private static MountInfo.Entry entry(int id, String device, String mp) {
    return new MountInfo.Entry(id, 1, device, "/", mp, "rw", "fuse.ossgw", "oss:b", "rw");
  }

  @Test
  void isFoundOnlyForTheMountItNames() {
    MountRecord r = MountRecord.ofCurrentProcess(new MountIdentity(103, "0:77", "/mnt/a b"), "/var/log/m.log");
    Path file = r.write(runtime);
    assertThat(file).exists();
    assertThat(MountRecord.find(runtime, entry(103, "0:77", "/mnt/a b"))).contains(r);
    // a newer mount at the same path that got the same id (or device) is not this process's
    assertThat(MountRecord.find(runtime, entry(103, "0:78", "/mnt/a b"))).isEmpty();
    assertThat(MountRecord.find(runtime, entry(104, "0:77", "/mnt/a b"))).isEmpty();
    assertThat(MountRecord.find(runtime, entry(103, "0:77", "/mnt/a"))).isEmpty();
    assertThat(r.process()).as("this process is running").isPresent();
    MountRecord.delete(file);
    assertThat(MountRecord.find(runtime, entry(103, "0:77", "/mnt/a b"))).isEmpty();
  }

  @Test
  void aLaterProcessWithTheSamePidIsNotTheMountsProcess() {
    MountRecord self = MountRecord.ofCurrentProcess(new MountIdentity(1, "0:1", "/m"), null);
    MountRecord reused = new MountRecord(self.pid(), self.started() - 1000, self.identity(), null);
    assertThat(reused.process()).isEmpty();
    assertThat(Unmounter.awaitProcess(reused, Duration.ZERO).exitCode()).isZero();
  }

  @Test
  void recordsOfProcessesThatAreGoneAreRemovedWhenTheNextIsWritten() {
    MountRecord self = MountRecord.ofCurrentProcess(new MountIdentity(7, "0:7", "/gone"), null);
    Path stale = new MountRecord(self.pid(), self.started() - 1000, self.identity(), null).write(runtime);
    assertThat(stale).exists();
    Path fresh = MountRecord.ofCurrentProcess(new MountIdentity(8, "0:8", "/new"), null).write(runtime);
    assertThat(stale).doesNotExist();
    assertThat(fresh).exists();
  }

  @Test
  void aProcessThatHoldsSpoolFilesIsStillUploading() throws Exception {
    Path spool = Files.createTempFile(runtime, "ossgw-spool-", ".tmp");
    try (var ch = java.nio.channels.FileChannel.open(spool, java.nio.file.StandardOpenOption.READ)) {
      Files.delete(spool); // as StagedFile does
      MountRecord self = MountRecord.ofCurrentProcess(new MountIdentity(1, "0:1", "/m"), "/l.log");
      Unmounter.Result r = Unmounter.awaitProcess(self, Duration.ofMillis(10));
      assertThat(r.exitCode()).isEqualTo(Unmounter.STILL_UPLOADING);
      assertThat(r.message()).contains("process " + self.pid() + " is still uploading 1 file(s)")
          .contains("/l.log").contains("tail --pid=" + self.pid());
    }
    MountRecord self = MountRecord.ofCurrentProcess(new MountIdentity(1, "0:1", "/m"), null);
    Unmounter.Result none = Unmounter.awaitProcess(self, Duration.ofMillis(10));
    assertThat(none.exitCode()).as("running but nothing staged: a note, status 0").isZero();
    assertThat(none.message()).contains("holds no file to upload");
  }
}
