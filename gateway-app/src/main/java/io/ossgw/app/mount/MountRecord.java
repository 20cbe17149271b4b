package io.ossgw.app.mount;

import io.ossgw.fuse.MountIdentity;
import io.ossgw.fuse.MountInfo;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * Which process serves a mount made by {@code ossgw mount}, so that {@code ossgw umount} can wait for that process to
 * finish the uploads it still owes after the unmount (files closed just before it: the last close uploads in the
 * background, see SEMANTICS.md) instead of returning while they are in flight.
 *
 * <p>One small properties file per mount process, {@code <runtime dir>/mounts/<mount point>.<pid>}, written once the
 * mount is live and removed when the process ends; a file left by a killed process is ignored because it names the
 * kernel mount ({@link MountIdentity}: id, device and path), which a later mount does not match while it is mounted,
 * and removed when the next record is written.
 *
 * @param pid the mount process
 * @param started when it started (ms since the epoch, {@link ProcessHandle.Info#startInstant()}), to tell it from a
 *     later process that got the same pid; 0 if unknown
 * @param identity the kernel mount it made
 * @param log where it logs, or null
 */
public record MountRecord(long pid, long started, MountIdentity identity, String log) {

  /** The record of the current process for {@code identity}. */
  public static MountRecord ofCurrentProcess(MountIdentity identity, String log) {
    ProcessHandle self = ProcessHandle.current();
    return new MountRecord(self.pid(), startedMillis(self), identity, log);
  }

  /** The process of this record, if it is still running (the same process, not a later one with its pid). */
  public Optional<ProcessHandle> process() {
    return ProcessHandle.of(pid).filter(ph -> started == 0 || startedMillis(ph) == started);
  }

  private static long startedMillis(ProcessHandle ph) {
    return ph.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
  }

  /**
   * The runtime directory of ossgw: {@code /run/ossgw} for root, else {@code $XDG_RUNTIME_DIR/ossgw}, else {@code
   * /tmp/ossgw-<uid>}.
   */
  public static Path runtimeDir() {
    if (ProcessIds.uid() == 0) {
      return Path.of("/run/ossgw");
    }
    String xdg = System.getenv("XDG_RUNTIME_DIR");
    return xdg != null && !xdg.isBlank() ? Path.of(xdg, "ossgw") : Path.of("/tmp", "ossgw-" + ProcessIds.uid());
  }

  /** Writes this record for the current process; returns its file (to {@link #delete}), or null if it cannot. */
  public Path write(Path runtimeDir) {
    Properties p = new Properties();
    p.setProperty("pid", Long.toString(pid));
    p.setProperty("started", Long.toString(started));
    p.setProperty("mount_id", Integer.toString(identity.mountId()));
    p.setProperty("device", identity.device());
    p.setProperty("mountpoint", identity.mountPoint());
    if (log != null) {
      p.setProperty("log", log);
    }
    try {
      Path dir = Files.createDirectories(runtimeDir.resolve("mounts"));
      pruneDead(dir);
      Path file = dir.resolve(fileName(identity.mountPoint()) + "." + pid);
      Path tmp = dir.resolve(file.getFileName() + ".tmp");
      try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        p.store(w, "ossgw mount process (read by ossgw umount)");
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return file;
    } catch (IOException e) {
      return null; // umount then only unmounts, as for mounts made by other tools
    }
  }

  /** Removes a file written by {@link #write}; null is ignored. */
  public static void delete(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // a leftover record is ignored by umount (its mount is gone)
      }
    }
  }

  /** The record of the process that made {@code mount}, the entry now in the mount table, if there is one. */
  public static Optional<MountRecord> find(Path runtimeDir, MountInfo.Entry mount) {
    Path dir = runtimeDir.resolve("mounts");
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    String prefix = fileName(mount.mountPoint()) + ".";
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, p -> p.getFileName().toString().startsWith(prefix)
        && !p.getFileName().toString().endsWith(".tmp"))) {
      for (Path f : files) {
        Optional<MountRecord> r = read(f).filter(rec -> rec.identity().matches(mount));
        if (r.isPresent()) {
          return r;
        }
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  /** Removes the records of processes that are gone (killed: they could not remove their own). */
  private static void pruneDead(Path dir) {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, p -> !p.getFileName().toString().endsWith(".tmp"))) {
      for (Path f : files) {
        if (read(f).filter(r -> r.process().isEmpty()).isPresent()) {
          delete(f);
        }
      }
    } catch (IOException ignored) {
      // pruning is housekeeping only
    }
  }

  private static Optional<MountRecord> read(Path f) {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
      p.load(r);
      return Optional.of(new MountRecord(Long.parseLong(p.getProperty("pid")),
          Long.parseLong(p.getProperty("started", "0")),
          new MountIdentity(Integer.parseInt(p.getProperty("mount_id")), p.getProperty("device"),
              p.getProperty("mountpoint")), p.getProperty("log")));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // being written, or not ours
    }
  }

  /** The mount point as a file name: {@code /mnt/a b} becomes {@code mnt_a_b}, made unique by a hash. */
  static String fileName(String mountpoint) {
    String name = mountpoint.replaceAll("[^A-Za-z0-9._-]+", "_").replaceAll("^_+", "");
    if (name.length() > 100) {
      name = name.substring(name.length() - 100);
    }
    return (name.isEmpty() ? "root" : name) + "-" + Integer.toHexString(mountpoint.hashCode());
  }
}
