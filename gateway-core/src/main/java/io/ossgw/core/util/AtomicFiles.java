package io.ossgw.core.util;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Small state files replaced whole, atomically and durably (the NFS client records, the NLM monitor list). */
public final class AtomicFiles {
  private AtomicFiles() {}

  /**
   * Replaces {@code file}'s content with {@code text} (US-ASCII): written to {@code file.tmp}, forced to disk, then
   * renamed over {@code file}, so a crash leaves the old content or the new, never a mix, and the new one is on disk
   * when this returns.
   *
   * @throws IOException if it cannot be written or renamed (the old content is then untouched)
   */
  public static void replace(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer data = StandardCharsets.US_ASCII.encode(text);
      while (data.hasRemaining()) {
        ch.write(data);
      }
      ch.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
