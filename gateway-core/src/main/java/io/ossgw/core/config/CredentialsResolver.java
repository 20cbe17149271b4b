package io.ossgw.core.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Finds credentials the way ossfs does (reference/ossfs-compat.md §2): {@code passwd_file=}, then the environment
 * ({@code OSS_ACCESS_KEY_ID}/{@code OSS_ACCESS_KEY_SECRET}, or {@code OSSACCESSKEYID}/{@code OSSSECRETACCESSKEY}, with
 * {@code OSS_SESSION_TOKEN}), then {@code ~/.passwd-ossfs}, then {@code /etc/passwd-ossfs}.
 *
 * <p>A passwd file holds {@code AK:SK} or {@code bucket:AK:SK} lines ({@code #} comments allowed); a line naming the
 * bucket wins over a bare pair. Like ossfs, a file that others can read, write or execute is refused.
 */
public final class CredentialsResolver {
  private CredentialsResolver() {}

  /**
   * @param bucket the bucket being mounted (selects {@code bucket:AK:SK} lines)
   * @param passwdFile the {@code passwd_file=} value, or null
   * @param env the process environment
   * @param home the user's home directory
   * @return the credentials, or empty when none of the sources has any
   * @throws IllegalArgumentException for an unreadable, world-accessible or malformed passwd file
   */
  public static Optional<Credentials> resolve(String bucket, Path passwdFile, Map<String, String> env, Path home) {
    if (passwdFile != null) {
      return Optional.of(fromFile(passwdFile, bucket));
    }
    String ak = first(env, "OSS_ACCESS_KEY_ID", "OSSACCESSKEYID");
    String sk = first(env, "OSS_ACCESS_KEY_SECRET", "OSSSECRETACCESSKEY");
    if (ak != null && sk != null) {
      return Optional.of(new Credentials(ak, sk, first(env, "OSS_SESSION_TOKEN", "OSSSESSIONTOKEN")));
    }
    for (Path p : List.of(home.resolve(".passwd-ossfs"), Path.of("/etc/passwd-ossfs"))) {
      if (Files.isRegularFile(p)) {
        return Optional.of(fromFile(p, bucket));
      }
    }
    return Optional.empty();
  }

  private static String first(Map<String, String> env, String a, String b) {
    String v = env.get(a);
    if (v == null || v.isBlank()) {
      v = env.get(b);
    }
    return v == null || v.isBlank() ? null : v.strip();
  }

  /** Reads one passwd file; see the class comment for its format and the permission rule. */
  public static Credentials fromFile(Path file, String bucket) {
    List<String> lines;
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      if (perms.contains(PosixFilePermission.OTHERS_READ) || perms.contains(PosixFilePermission.OTHERS_WRITE)
          || perms.contains(PosixFilePermission.OTHERS_EXECUTE)) {
        throw new IllegalArgumentException("credentials file " + file + " is accessible by others; run: chmod 600 " + file);
      }
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read credentials file " + file + ": " + e.getMessage(), e);
    }
    Credentials bare = null;
    for (String raw : lines) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split(":", -1);
      if (f.length == 3 && f[0].equals(bucket)) {
        return new Credentials(f[1].strip(), f[2].strip());
      } else if (f.length == 2 && bare == null) {
        bare = new Credentials(f[0].strip(), f[1].strip());
      } else if (f.length != 2 && f.length != 3) {
        throw new IllegalArgumentException("credentials file " + file + ": expected AK:SK or bucket:AK:SK lines");
      }
    }
    if (bare == null) {
      throw new IllegalArgumentException("credentials file " + file + " has no AK:SK line for bucket " + bucket);
    }
    return bare;
  }
}
