package io.ossgw.app.smb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * Where Samba keeps everything for one gateway: {@code <state-dir>/smb/} holds {@code smb.conf} and the directories
 * smb.conf points at ({@code private/} with {@code passdb.tdb}, {@code lock/}, {@code state/}, {@code cache/},
 * {@code pid/}, {@code ncalrpc/}, {@code log/}) and {@code mnt/<share>}, the FUSE mount points. Nothing goes to
 * /etc/samba or /var/lib/samba, so several gateways (and a system Samba) can live on one host.
 *
 * @param root {@code <state-dir>/smb}
 */
public record SmbLayout(Path root) {
  public SmbLayout {
    root = root.toAbsolutePath().normalize();
  }

  public Path conf() {
    return root.resolve("smb.conf");
  }

  /** Samba's {@code private dir}: passdb.tdb and secrets.tdb (mode 0700, as Samba requires). */
  public Path privateDir() {
    return root.resolve("private");
  }

  public Path passdb() {
    return privateDir().resolve("passdb.tdb");
  }

  public Path lockDir() {
    return root.resolve("lock");
  }

  public Path stateDir() {
    return root.resolve("state");
  }

  public Path cacheDir() {
    return root.resolve("cache");
  }

  public Path pidDir() {
    return root.resolve("pid");
  }

  /** smbd's pid file (Samba names it after the binary). */
  public Path pidFile() {
    return pidDir().resolve("smbd.pid");
  }

  public Path ncalrpcDir() {
    return root.resolve("ncalrpc");
  }

  public Path logDir() {
    return root.resolve("log");
  }

  /** The FUSE mount point of a share. */
  public Path mountpoint(String share) {
    return root.resolve("mnt").resolve(share);
  }

  /**
   * Creates every directory (and the share mount points) with the modes Samba expects.
   *
   * @throws UncheckedIOException if a directory cannot be created
   */
  public void create(List<String> shares) {
    try {
      for (Path d : List.of(root, lockDir(), stateDir(), cacheDir(), pidDir(), ncalrpcDir(), logDir())) {
        Files.createDirectories(d);
      }
      Files.createDirectories(privateDir());
      // smbd refuses a private dir others can read (it holds password hashes)
      Files.setPosixFilePermissions(privateDir(), PosixFilePermissions.fromString("rwx------"));
      for (String s : shares) {
        Path mp = mountpoint(s);
        if (!Files.exists(mp, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          Files.createDirectories(mp);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the Samba directories under " + root + ": " + e.getMessage(), e);
    }
  }
}
