package io.ossgw.fuse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Temp mount points for tests, and the last-resort cleanup that must never leave a mount behind. */
final class TestMounts {
  private TestMounts() {}

  static Path newMountpoint(String prefix) throws IOException {
    return Files.createTempDirectory("ossgw-" + prefix + "-");
  }

  static boolean isMountPoint(Path p) {
    String key = StaleMounts.mountTableKey(p);
    return MountInfo.find(MountInfo.read(), key).isPresent();
  }

  /** Closes the mount, lazily unmounts whatever is still there, and removes the (empty) directory. */
  static void cleanup(MountedFilesystem m, Path mp) {
    try {
      if (m != null) {
        m.close();
      }
    } catch (RuntimeException e) {
      e.printStackTrace();
    } finally {
      for (int i = 0; i < 5 && isMountPoint(mp); i++) {
        Sh.run(List.of("fusermount", "-u", "-z", mp.toString()));
      }
      try {
        Files.deleteIfExists(mp);
      } catch (IOException e) {
        // not empty: a test wrote into the directory while it was not mounted; leave it for inspection
      }
    }
  }
}
