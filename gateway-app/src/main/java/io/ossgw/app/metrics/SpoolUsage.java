package io.ossgw.app.metrics;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Bytes in the local write spool: the sizes of the process's open spool files. The engine creates each spool file
 * ({@code tmpdir/ossgw-spool-*.tmp}) and unlinks it at once (like ossfs's mkstemp), so only the open descriptors in
 * {@code /proc/self/fd} still reach them; this walks them at scrape time (one readlink and one stat per open
 * descriptor) instead of adding counters to the write path. Sizes are logical (a sparse spool may use less disk).
 * Returns 0 where {@code /proc} is missing.
 */
final class SpoolUsage {
  private static final Path FDS = Path.of("/proc/self/fd");
  private static final String MARK = "ossgw-spool-";

  private SpoolUsage() {}

  /** @return bytes in open spool files now */
  static long bytes() {
    long total = 0;
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(FDS)) {
      for (Path fd : fds) {
        try {
          Path target = Files.readSymbolicLink(fd);
          if (target.getFileName() != null && target.getFileName().toString().startsWith(MARK)) {
            total += Files.size(fd); // follows the link: the (deleted) spool file's size
          }
        } catch (IOException | UnsupportedOperationException e) {
          // the descriptor closed meanwhile, or is not a link: skip it
        }
      }
    } catch (IOException e) {
      return 0;
    }
    return total;
  }
}
