package io.ossgw.app.mount;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * How a detached {@code ossgw mount} child tells its parent the outcome: it writes {@code mounted} or {@code error}
 * plus a message into a file the parent named with the hidden {@code --ready-file} option. The file is written under
 * a temporary name and renamed, so the parent never reads half a message.
 */
public final class ReadyFile {
  /** The child's outcome as read by the parent. */
  public record Outcome(boolean mounted, String message) {}

  private final Path file;

  public ReadyFile(Path file) {
    this.file = file;
  }

  public Path path() {
    return file;
  }

  /** Child side: the mount is live. */
  public void mounted() {
    write("mounted\n");
  }

  /** Child side: mounting failed with this user-facing message. */
  public void failed(String message) {
    write("error\n" + message + "\n");
  }

  private void write(String text) {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write ready file " + file, e);
    }
  }

  /** Parent side: the outcome, once the child has written one. */
  public Optional<Outcome> poll() {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      if (text.startsWith("mounted")) {
        return Optional.of(new Outcome(true, ""));
      }
      String msg = text.startsWith("error\n") ? text.substring(6).strip() : text.strip();
      return Optional.of(new Outcome(false, msg));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Removes the file (parent, when done). */
  public void delete() {
    try {
      Files.deleteIfExists(file);
      Files.deleteIfExists(file.resolveSibling(file.getFileName() + ".tmp"));
    } catch (IOException ignored) {
      // a leftover ready file in a temp directory is harmless
    }
  }
}
