package io.ossgw.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The decision logic of {@link StaleMounts} on a given table and probe result. */
class StaleMountsTest {
  private static final Path MP = Path.of("/tmp/ossgw-stale-unit/a b");
  private static final String KEY = StaleMounts.mountTableKey(MP);
  private static final List<MountInfo.Entry> TABLE = List.of(
      new MountInfo.Entry(22, 1, "0:99", "/", "/", "rw", "ext4", "/dev/vda", "rw"),
      new MountInfo.Entry(50, 22, "0:99", "/", KEY, "rw", "fuse.ossgw", "oss:b", "rw"));

  @Test
  void notMountedWhenNotInTheTable() {
    StaleMounts.Status s = StaleMounts.check(Path.of("/tmp/elsewhere"), TABLE, p -> null);
    assertThat(s.state()).isEqualTo(StaleMounts.State.NOT_MOUNTED);
    assertThat(s.message()).isEmpty();
    assertThat(s.clearCommand()).isNull();
  }

  @Test
  void liveWhenStatWorks() {
    StaleMounts.Status s = StaleMounts.check(MP, TABLE, p -> null);
    assertThat(s.state()).isEqualTo(StaleMounts.State.LIVE);
    assertThat(s.message()).contains("already a mount point").contains("fusermount -u '" + KEY + "'");
  }

  @Test
  void deadOnEnotconnWithTheCommandThatClearsIt() {
    StaleMounts.Status s = StaleMounts.check(MP, TABLE,
        p -> new FileSystemException(p.toString(), null, "Transport endpoint is not connected"));
    assertThat(s.state()).isEqualTo(StaleMounts.State.DEAD);
    assertThat(s.clearCommand()).isEqualTo("fusermount -u -z '" + KEY + "'");
    assertThat(s.message()).contains("dead FUSE mount").contains("fusermount -u -z '" + KEY + "'")
        .contains("umount -l '" + KEY + "'");
  }

  @Test
  void deadOnEconnabortedToo() {
    StaleMounts.Status s = StaleMounts.check(MP, TABLE,
        p -> new FileSystemException(p.toString(), null, "Software caused connection abort"));
    assertThat(s.state()).isEqualTo(StaleMounts.State.DEAD);
    assertThat(s.message()).contains("dead FUSE mount (Software caused connection abort;");
  }

  @Test
  void otherErrorsMeanAMountThatIsAlive() {
    StaleMounts.Status s = StaleMounts.check(MP, TABLE,
        p -> new FileSystemException(p.toString(), null, "Input/output error"));
    assertThat(s.state()).isEqualTo(StaleMounts.State.LIVE);
    assertThat(s.error()).isEqualTo("Input/output error");
  }

  @Test
  void unresponsiveWhenStatHangs() {
    StaleMounts.Status s = StaleMounts.check(MP, TABLE, p -> new StaleMounts.ProbeTimeout("stat hung"));
    assertThat(s.state()).isEqualTo(StaleMounts.State.UNRESPONSIVE);
    assertThat(s.message()).contains("fusermount -u -z");
  }

  @Test
  void nonFuseMountsGetUmount() {
    List<MountInfo.Entry> t = List.of(new MountInfo.Entry(60, 22, "0:99", "/", "/tmp/tmpfs-x", "rw", "tmpfs", "tmpfs", ""));
    StaleMounts.Status s = StaleMounts.check(Path.of("/tmp/tmpfs-x"), t, p -> null);
    assertThat(s.message()).contains("umount /tmp/tmpfs-x");
  }

  @Test
  void quotesOnlyWhenNeeded() {
    assertThat(StaleMounts.shellQuote("/mnt/oss:b")).isEqualTo("/mnt/oss:b");
    assertThat(StaleMounts.shellQuote("/mnt/it's")).isEqualTo("'/mnt/it'\\''s'");
  }
}
