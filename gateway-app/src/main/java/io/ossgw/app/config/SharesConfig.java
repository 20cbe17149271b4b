package io.ossgw.app.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ossgw.shares.<name>.*}: the SMB shares {@code serve} offers through Samba (see {@link SmbConfig}). Each share
 * is a bucket or a prefix of one, mounted with FUSE under {@code <state-dir>/smb/mnt/<name>} and shared as
 * {@code \\host\<name>}. Example:
 *
 * <pre>
 * ossgw.shares.data.bucket=my-bucket
 * ossgw.shares.data.prefix=/projects
 * ossgw.shares.data.valid-users=alice,bob
 * ossgw.shares.archive.bucket=archive
 * ossgw.shares.archive.read-only=true
 * </pre>
 */
@ConfigMapping(prefix = "ossgw.shares")
public interface SharesConfig {
  /**
   * The shares by name: the SMB share name clients connect to (1-80 characters of letters, digits, '.', '_' and '-';
   * unique ignoring case). Default: none, and then smbd is not started.
   */
  @WithParentName
  Map<String, Share> all();

  /** One share. */
  interface Share {
    /** {@code ossgw.shares.<name>.bucket}: the bucket. Required. */
    String bucket();

    /** {@code ossgw.shares.<name>.prefix}: the sub-path to share, e.g. {@code /a/b}. Default: none (whole bucket). */
    Optional<String> prefix();

    /**
     * {@code ossgw.shares.<name>.options.<ossfs-name>}: ossfs {@code -o} options of the share's engine and FUSE
     * mount, over {@code ossgw.options.*}; {@code allow_other} is always on (smbd reads the mount). Default: none.
     */
    Map<String, String> options();

    /**
     * {@code ossgw.shares.<name>.read-only}: clients may only read (smb.conf {@code read only}; the FUSE mount is
     * read-only too). Default false.
     */
    @WithDefault("false")
    boolean readOnly();

    /**
     * {@code ossgw.shares.<name>.valid-users}: comma-separated {@code ossgw.smb.users} names allowed to connect
     * (smb.conf {@code valid users}). Default: every configured user.
     */
    Optional<List<String>> validUsers();

    /**
     * {@code ossgw.shares.<name>.guest}: also let clients in without a password (smb.conf {@code guest ok}; unknown
     * user names map to the guest account). Default false.
     */
    @WithDefault("false")
    boolean guest();
  }
}
