package io.ossgw.app.smb;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * The accounts Samba needs for the configured SMB users: a Unix account per user (tdbsam refuses users without one;
 * created as a system account without home or login shell when missing) and a passdb entry with the configured
 * password. The passdb is made to match the configuration exactly: users removed from it are removed from the passdb.
 */
public final class SmbAccounts {
  private static final Logger LOG = Logger.getLogger(SmbAccounts.class);

  /** Names useradd accepts by default on Debian (NAME_REGEX), and at most 32 characters. */
  static final Pattern USER_NAME = Pattern.compile("[a-z_][a-z0-9_-]{0,30}[$]?");
  private static final Pattern USER_LIST_UID = Pattern.compile("-?[0-9]+");

  private SmbAccounts() {}

  /** Whether {@code name} can be an SMB user (a Unix account name). */
  public static boolean validName(String name) {
    return name != null && USER_NAME.matcher(name).matches();
  }

  /**
   * Creates the Unix accounts that are missing and sets every user's password in the passdb of {@code conf}; removes
   * passdb users that are not configured.
   *
   * @param conf the rendered smb.conf (it names the passdb)
   * @param users the configured users
   * @throws SmbException when useradd, smbpasswd or pdbedit fail (with their output, never the password)
   */
  public static void apply(Path conf, List<SmbUser> users) {
    Path smbpasswd = SambaTools.require("smbpasswd", null);
    Path pdbedit = SambaTools.require("pdbedit", null);
    for (SmbUser u : users) {
      ensureUnixAccount(u.name());
      // -s reads the new password twice from stdin; -a adds the user or, if present, changes the password
      SambaTools.Result r = SambaTools.run(List.of(smbpasswd.toString(), "-c", conf.toString(), "-s", "-a", u.name()),
          u.password() + "\n" + u.password() + "\n");
      if (!r.ok()) {
        throw new SmbException("cannot set the SMB password of user '" + u.name() + "': " + r.output());
      }
    }
    Set<String> wanted = users.stream().map(SmbUser::name).collect(Collectors.toSet());
    for (String old : passdbUsers(pdbedit, conf)) {
      if (!wanted.contains(old)) {
        SambaTools.Result r = SambaTools.run(List.of(pdbedit.toString(), "-s", conf.toString(), "-x", "-u", old), null);
        if (r.ok()) {
          LOG.infof("SMB user '%s' is no longer configured: removed from the passdb", old);
        } else {
          LOG.warnf("cannot remove SMB user '%s' from the passdb: %s", old, r.output());
        }
      }
    }
  }

  /**
   * The user names in the passdb, from {@code pdbedit -L}'s standard output; its standard error (Samba's DEBUG lines
   * such as {@code tdbsam_open: Converting version 0.0 database ...}) is not part of the listing.
   */
  static List<String> passdbUsers(Path pdbedit, Path conf) {
    SambaTools.Result r = SambaTools.runForOutput(List.of(pdbedit.toString(), "-s", conf.toString(), "-L"));
    if (!r.ok()) {
      throw new SmbException("cannot list the SMB passdb (" + conf + "): " + r.output());
    }
    return parseUserList(r.output());
  }

  /**
   * Parses {@code pdbedit -L} output: one {@code name:uid:full name} line per user (Samba's
   * {@code print_sam_info}, uid numeric, possibly -1); any other line is not a user and is skipped.
   */
  static List<String> parseUserList(String listing) {
    List<String> names = new ArrayList<>();
    for (String line : listing.split("\n")) {
      String[] f = line.split(":", 3);
      if (f.length == 3 && validName(f[0]) && USER_LIST_UID.matcher(f[1]).matches()) {
        names.add(f[0]);
      }
    }
    return names;
  }

  /** Creates {@code name} as a system account (home /nonexistent, not created; no login shell) unless it exists. */
  static void ensureUnixAccount(String name) {
    if (SambaTools.run(List.of("getent", "passwd", name), null).ok()) {
      return;
    }
    Path useradd = SambaTools.find("useradd").orElseThrow(() ->
        new SmbException("SMB user '" + name + "' needs a Unix account and useradd was not found: create it"));
    SambaTools.Result r = SambaTools.run(List.of(useradd.toString(), "--system", "--no-create-home", "--home-dir",
        "/nonexistent", "--shell", "/usr/sbin/nologin", name), null);
    if (!r.ok()) {
      throw new SmbException("cannot create the Unix account '" + name + "' for SMB: " + r.output());
    }
    LOG.infof("created the Unix system account '%s' for SMB", name);
  }
}
