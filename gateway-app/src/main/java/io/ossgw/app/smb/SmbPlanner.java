package io.ossgw.app.smb;

import io.ossgw.app.config.SharesConfig;
import io.ossgw.app.config.SmbConfig;
import io.ossgw.app.mount.MountSource;
import io.ossgw.app.serve.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Checks {@code ossgw.smb.*} and {@code ossgw.shares.*} before anything starts: share names, users and passwords,
 * who may use which share, the port, and that smbd is installed. All problems are reported together in one
 * {@link ConfigException}; a missing smbd is an {@link SmbException} naming the package to install.
 */
public final class SmbPlanner {
  private static final Logger LOG = Logger.getLogger(SmbPlanner.class);
  /** Share names: what Windows, macOS and smbclient all accept in a UNC path, and nothing smb.conf would parse. */
  static final Pattern SHARE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,79}");
  private static final Set<String> RESERVED = Set.of("global", "homes", "printers", "print$", "ipc$");

  /**
   * One share, checked; its engine and FUSE options are planned with the other front ends.
   *
   * @param name the share name
   * @param source bucket and prefix
   * @param options its own {@code -o} options ({@code ossgw.shares.<name>.options.*})
   * @param readOnly read-only share
   * @param validUsers who may connect (empty for a guest share open to everybody)
   * @param guest guest access
   */
  public record PlannedShare(String name, MountSource source, Map<String, String> options, boolean readOnly,
      List<String> validUsers, boolean guest) {}

  /** The checked SMB configuration. */
  public record Plan(SmbSettings settings, List<PlannedShare> shares) {}

  private SmbPlanner() {}

  /**
   * @param smb {@code ossgw.smb.*}
   * @param shares {@code ossgw.shares.*} (at least one, else SMB is off and this is not called)
   * @param stateDir the gateway's state directory (Samba's goes to {@code <state-dir>/smb})
   * @throws ConfigException listing every problem
   * @throws SmbException when smbd is not installed
   */
  public static Plan plan(SmbConfig smb, SharesConfig shares, Path stateDir) {
    List<String> problems = new ArrayList<>();
    if (smb.port() < 1 || smb.port() > 65535) {
      problems.add("ossgw.smb.port must be 1..65535, got " + smb.port());
    }
    if (smb.bind().isBlank() || smb.bind().chars().anyMatch(Character::isWhitespace)) {
      problems.add("ossgw.smb.bind must be one address, got '" + smb.bind() + "'");
    }
    if (smb.logLevel() < 0 || smb.logLevel() > 10) {
      problems.add("ossgw.smb.log-level must be 0..10, got " + smb.logLevel());
    }
    Path smbRoot = stateDir.toAbsolutePath().normalize().resolve("smb");
    if (smbRoot.toString().contains("%") || smbRoot.toString().contains("\n")) {
      problems.add("ossgw.state-dir must not contain '%' or a newline (smb.conf would expand it): " + stateDir);
    }
    List<SmbUser> users = new ArrayList<>();
    for (var e : new TreeMap<>(smb.users()).entrySet()) {
      String at = "ossgw.smb.users." + e.getKey();
      if (!SmbAccounts.validName(e.getKey())) {
        problems.add(at + ": '" + e.getKey() + "' is not a valid user name (lower-case letters, digits, '_' and '-', "
            + "starting with a letter or '_', at most 32 characters: it is also a Unix account)");
        continue;
      }
      try {
        users.add(new SmbUser(e.getKey(), password(at, e.getValue())));
      } catch (IllegalArgumentException ex) {
        problems.add(at + ": " + ex.getMessage());
      }
    }
    List<String> userNames = users.stream().map(SmbUser::name).toList();
    List<PlannedShare> out = new ArrayList<>();
    Map<String, String> byLowerName = new HashMap<>();
    for (var e : new TreeMap<>(shares.all()).entrySet()) {
      String name = e.getKey();
      String at = "ossgw.shares." + name;
      SharesConfig.Share s = e.getValue();
      if (!SHARE_NAME.matcher(name).matches() || RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
        problems.add(at + ": '" + name + "' is not a valid share name (1-80 letters, digits, '.', '_', '-'; not "
            + "global, homes, printers, print$ or ipc$)");
        continue;
      }
      String clash = byLowerName.putIfAbsent(name.toLowerCase(Locale.ROOT), name);
      if (clash != null) {
        problems.add(at + ": share names ignore case for SMB clients; '" + name + "' clashes with '" + clash + "'");
        continue;
      }
      MountSource src;
      try {
        src = MountSource.of(s.bucket(), s.prefix().orElse(""));
      } catch (IllegalArgumentException ex) {
        problems.add(at + ": " + ex.getMessage());
        continue;
      }
      List<String> valid = s.validUsers().map(l -> l.stream().map(String::strip).filter(u -> !u.isEmpty()).toList())
          .orElse(null);
      if (valid != null) {
        for (String u : valid) {
          if (!userNames.contains(u)) {
            problems.add(at + ".valid-users: '" + u + "' is not configured (ossgw.smb.users." + u + ".password-file)");
          }
        }
        if (s.guest()) {
          problems.add(at + ": a guest share is open to everybody; remove valid-users or guest");
        }
      }
      if (!s.guest() && userNames.isEmpty()) {
        problems.add(at + ": no SMB user can use it: configure ossgw.smb.users.<name>.password-file, or set "
            + at + ".guest=true");
      }
      List<String> allowed = s.guest() ? List.of() : valid != null ? valid : userNames;
      out.add(new PlannedShare(name, src, Map.copyOf(s.options()), s.readOnly(), allowed, s.guest()));
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    Path smbd = SambaTools.require(smb.smbd(), "ossgw.smb.smbd");
    SmbSettings settings = new SmbSettings(smb.bind().strip(), smb.port(), smbd, smb.logLevel(), smb.stopTimeout(),
        users, smbRoot);
    return new Plan(settings, out);
  }

  /** The password of one user, from its file or the property. */
  static String password(String at, SmbConfig.User u) {
    if (u.passwordFile().isPresent() == u.password().isPresent()) {
      throw new IllegalArgumentException("set exactly one of password-file and password");
    }
    String pw;
    if (u.passwordFile().isPresent()) {
      Path f = u.passwordFile().get();
      try {
        pw = Files.readString(f);
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(f);
        if (perms.contains(PosixFilePermission.OTHERS_READ)) {
          LOG.warnf("%s.password-file %s can be read by every user of this host (chmod 600 it)", at, f);
        }
      } catch (IOException | UnsupportedOperationException e) {
        throw new IllegalArgumentException("cannot read password-file " + f + ": " + e.getMessage());
      }
      // one trailing newline, as `echo secret > file` writes it, is not part of the password
      if (pw.endsWith("\r\n")) {
        pw = pw.substring(0, pw.length() - 2);
      } else if (pw.endsWith("\n")) {
        pw = pw.substring(0, pw.length() - 1);
      }
    } else {
      pw = u.password().get();
    }
    if (pw.isEmpty()) {
      throw new IllegalArgumentException("the password is empty");
    }
    if (pw.indexOf('\n') >= 0 || pw.indexOf('\r') >= 0 || pw.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("the password must be one line");
    }
    return pw;
  }
}
