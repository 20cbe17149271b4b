package io.ossgw.app.mount;

import io.ossgw.fuse.MountIdentity;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A small shell process started with each FUSE mount that detaches that mount if this process has to halt for an
 * exhausted heap ({@link io.ossgw.app.lifecycle.HeapGuard}, issue 21 item 4); without it the mount would stay behind
 * dead ("Transport endpoint is not connected") and a restarted {@code ossgw mount} would refuse the mount point.
 *
 * <p>A separate process because a full heap cannot be counted on for reading the mount table or starting a command:
 * {@link #trigger()} only writes one line to the helper's stdin (no allocation); the helper does the rest. It checks,
 * as every unmount of the gateway does, that the mount with this id and device number is still the topmost at its
 * path (never a mount made later over it), detaches it lazily ({@code fusermount -u -z}, else {@code umount -l} as
 * root: files still open keep the connection until the process is gone) and prints one line on the process's stderr
 * (the mount's log), or the command that clears the mount if it could not. When the mount ends any other way
 * ({@link #close()}, or the process dies: kill -9 keeps its documented dead mount) the helper reads end-of-file and
 * exits without doing anything. Costs one idle {@code sh} per mount.
 */
final class DetachHelper implements AutoCloseable {
  static final String SCRIPT = """
      IFS= read -r go || exit 0
      [ "$go" = detach ] || exit 0
      state=$(awk -v id="$1" -v dev="$2" '
        $1 == id && $3 == dev { mp = $5; found = 1; covered = 0; next }
        found && $5 == mp { covered = 1 }
        END { print (found ? (covered ? "covered" : "top") : "gone") }' /proc/self/mountinfo)
      case $state in
        gone) exit 0 ;;
        covered) printf '%s\n' "ossgw: $3 is covered by a later mount and is left as a dead mount under it; once \
      that one is gone, clear it with: fusermount -u -z '$3'" >&2; exit 1 ;;
      esac
      fusermount -u -z "$3" 2>/dev/null || umount -l "$3" 2>/dev/null
      if awk -v id="$1" -v dev="$2" '$1 == id && $3 == dev { f = 1 } END { exit !f }' /proc/self/mountinfo; then
        printf '%s\n' "ossgw: $3 is left as a dead mount; clear it with: fusermount -u -z '$3' (or: ossgw umount '$3')" >&2
        exit 1
      fi
      printf '%s\n' "ossgw: detached $3 (fusermount -u -z): the mount point can be mounted again" >&2
      """;
  private static final byte[] DETACH = "detach\n".getBytes(StandardCharsets.US_ASCII);

  private final Process process;
  private final OutputStream stdin;

  private DetachHelper(Process process) {
    this.process = process;
    this.stdin = process.getOutputStream();
  }

  /**
   * Starts the helper of mount {@code id} at {@code mountpoint}, or returns null if it cannot run ({@code sh} missing,
   * identity unknown); the FATAL sequence then prints the command that clears the mount instead.
   */
  static DetachHelper start(MountIdentity id, Path mountpoint) {
    if (id == null) {
      return null;
    }
    try {
      Process p = new ProcessBuilder("sh", "-c", SCRIPT, "ossgw-detach", Integer.toString(id.mountId()), id.device(),
          mountpoint.toString())
          .directory(new File("/")) // never keep the mount (or anything else) busy
          .redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      return new DetachHelper(p);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Tells the helper to detach the mount; allocates nothing. */
  void trigger() throws IOException {
    stdin.write(DETACH);
    stdin.flush();
  }

  /** Waits up to {@code millis} for the helper to finish (after {@link #trigger()}). */
  void awaitDone(long millis) throws InterruptedException {
    process.waitFor(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /** The mount ended normally: the helper exits without doing anything. */
  @Override
  public void close() {
    try {
      stdin.close();
    } catch (IOException e) {
      process.destroy();
    }
  }
}
