package io.ossgw.app.cli;

import io.ossgw.app.mount.Unmounter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ossgw umount MOUNTPOINT}: {@code fusermount -u}, falling back to {@code umount -l}. */
@Command(name = "umount", aliases = "unmount", mixinStandardHelpOptions = true,
    description = "Unmount an ossgw FUSE mount (fusermount -u, falling back to umount -l); the mount process exits.")
public class UmountCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "MOUNTPOINT", description = "the mount point")
  Path mountpoint;

  @Override
  public Integer call() throws Exception {
    Unmounter.Result r = Unmounter.unmount(mountpoint);
    if (r.exitCode() != 0) {
      Cli.error(r.message());
    }
    return r.exitCode();
  }
}
