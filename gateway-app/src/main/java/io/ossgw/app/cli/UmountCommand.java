package io.ossgw.app.cli;

import io.ossgw.app.mount.Unmounter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ossgw umount MOUNTPOINT [--timeout SECONDS]}: {@code fusermount -u}, falling back to {@code umount -l}; then
 * waits for the process of an {@code ossgw mount} to finish its uploads and exit (see {@link Unmounter}).
 */
@Command(name = "umount", aliases = "unmount", mixinStandardHelpOptions = true,
    description = {"Unmount an ossgw FUSE mount (fusermount -u, falling back to umount -l), then wait for the mount's "
        + "process to upload what it still holds and exit.",
        "Exit status: 0 unmounted (and its process exited), 1 cannot unmount, 3 unmounted but its process is still "
            + "uploading files after --timeout (the message names the process and how many files)."})
public class UmountCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "MOUNTPOINT", description = "the mount point")
  Path mountpoint;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
      description = "how long to wait for the mount's process to finish its uploads (default: ${DEFAULT-VALUE})")
  long timeoutSeconds;

  @Override
  public Integer call() throws Exception {
    Unmounter.Result r = Unmounter.unmount(mountpoint, Duration.ofSeconds(Math.max(0, timeoutSeconds)));
    if (!r.message().isEmpty()) {
      Cli.error(r.message());
    }
    return r.exitCode();
  }
}
