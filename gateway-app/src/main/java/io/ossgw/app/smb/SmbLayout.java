package io.ossgw.app.smb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Where Samba keeps everything for one gateway: {@code <state-dir>/smb/} holds {@code smb.conf} and the directories
 * smb.conf points at ({@code private/} with {@code passdb.tdb}, {@code lock/}, {@code state/}, {@code cache/},
 * {@code pid/}, {@code ncalrpc/}, {@code log/}) and {@code mnt/<share>}, the FUSE mount points. Nothing goes to
 * /etc/samba or /var/lib/samba, so several gateways (and a system Samba) can live on one host.
 *
 * <p>Samba creates UNIX sockets under {@code lock/} ({@code msg.sock/PID}) and {@code ncalrpc/} ({@code np/PIPE}); a
 * socket path has at most {@value #MAX_SOCKET_PATH} bytes ({@code sun_path} of {@code sockaddr_un}, unix(7)), and
 * smbd exits with status 1 when one does not fit. When the state dir is too long for them
 * ({@link #socketRoot()}), those two directories go to {@code /tmp/ossgw-smb-<hash of root>} instead (mode 0700,
 * owned by us, removed by {@link #removeSocketRoot()} at stop).
 *
 * @param root {@code <state-dir>/smb}
 */
public record SmbLayout(Path root) {
  /** The longest UNIX socket path: 108 bytes of {@code sun_path} minus its terminating NUL (unix(7)). */
  static final int MAX_SOCKET_PATH = 107;
  /**
   * Room Samba needs below {@code lock/} and {@code ncalrpc/}: {@code /msg.sock/4194304} (the largest pid_max) is 17
   * bytes, named pipes such as {@code /np/protected_storage} 21; 32 leaves a margin.
   */
  static final int SOCKET_ROOM = 32;

  public SmbLayout {
    root = root.toAbsolutePath().normalize();
  }

  /**
   * Where the socket directories {@code lock/} and {@code ncalrpc/} live: {@link #root} when their sockets fit
   * {@value #MAX_SOCKET_PATH} bytes there, else {@code /tmp/ossgw-smb-<first 12 hex digits of SHA-256(root)>} (one
   * per state dir, so two gateways never share it).
   */
  public Path socketRoot() {
    int longest = root.resolve("ncalrpc").toString().getBytes(StandardCharsets.UTF_8).length;
    if (longest + SOCKET_ROOM <= MAX_SOCKET_PATH) {
      return root;
    }
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(root.toString().getBytes(StandardCharsets.UTF_8));
      return Path.of("/tmp", "ossgw-smb-" + HexFormat.of().formatHex(h, 0, 6));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JDK has SHA-256
    }
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
    return socketRoot().resolve("lock");
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
    return socketRoot().resolve("ncalrpc");
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
      createSocketRoot();
      for (Path d : List.of(root, lockDir(), stateDir(), cacheDir(), pidDir(), ncalrpcDir(), logDir())) {
        Files.createDirectories(d);
      }
      Files.createDirectories(privateDir());
      // smbd refuses a private dir others can read (it holds password hashes)
      Files.setPosixFilePermissions(privateDir(), PosixFilePermissions.fromString("rwx------"));
      for (String s : shares) {
        Path mp = mountpoint(s);
        if (!Files.exists(mp, LinkOption.NOFOLLOW_LINKS)) {
          Files.createDirectories(mp);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the Samba directories under " + root + ": " + e.getMessage(), e);
    }
  }

  /**
   * A short {@link #socketRoot()} in /tmp, created 0700; one left by an earlier run is reused only if it is a real
   * directory (not a symlink) owned by the user of the state dir, since anyone can create names in /tmp.
   */
  private void createSocketRoot() throws IOException {
    Path s = socketRoot();
    if (s.equals(root)) {
      return;
    }
    Files.createDirectories(root);
    try {
      Files.createDirectory(s, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (FileAlreadyExistsException e) {
      Object owner = Files.getAttribute(s, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      if (!Files.isDirectory(s, LinkOption.NOFOLLOW_LINKS)
          || !owner.equals(Files.getAttribute(root, "unix:uid", LinkOption.NOFOLLOW_LINKS))) {
        throw new IOException(s + " (Samba's socket directory, used because " + root + " is too long for a UNIX "
            + "socket path of " + MAX_SOCKET_PATH + " bytes) exists and is not a directory of ours; remove it, or "
            + "choose a shorter ossgw.state-dir");
      }
    }
    Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rwx------"));
  }

  /** Removes a {@link #socketRoot()} in /tmp and everything in it (at stop, after smbd exited); best effort. */
  public void removeSocketRoot() {
    Path s = socketRoot();
    if (s.equals(root) || !Files.isDirectory(s, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (var walk = Files.walk(s)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | UncheckedIOException e) {
      // a leftover in /tmp is harmless: the next start reuses it
    }
  }
}
