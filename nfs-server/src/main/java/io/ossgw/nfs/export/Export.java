package io.ossgw.nfs.export;

import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Objects;

/**
 * One exported file system: a path clients mount and the {@link VirtualFileSystem} behind it, with its access rules
 * (exports(5) semantics). The VFS root is the export's root; MOUNT also accepts any directory below it.
 *
 * @param path the exported path, e.g. {@code "/bucket"} or {@code "/bucket/prefix"}: absolute, no trailing slash,
 *     no empty, "." or ".." components
 * @param fs the file system served (an engine's {@code fileSystem()}); the export does not own or close it
 * @param readOnly refuse every change with NFS3ERR_ROFS
 * @param clients the client networks allowed; others get MNT3ERR_ACCES and NFS3ERR_ACCES. Never empty: use
 *     {@link Cidr#ANY} for everyone
 * @param squash identity mapping of AUTH_SYS credentials
 * @param anonUid the uid squashed identities (and AUTH_NONE) become; 65534 by default
 * @param anonGid the gid squashed identities become; 65534 by default
 * @param secure only accept calls from source ports below 1024 (exports(5) {@code secure})
 * @param id the export's number in file handles and its fsid: must stay the same across restarts for handles to
 *     stay valid. {@link #idOf(String)} derives it from the path
 * @param durableCreate NFSv3 CREATE and NFSv4.1 OPEN4_CREATE put the new, empty object in OSS before they reply
 *     (one PutObject more per created file), as RFC 1813 §3.3.8 asks of CREATE: a file whose gateway dies before the
 *     first COMMIT or close still exists for the client's resent WRITEs after a crash or on the standby that takes
 *     over. Off, a created file reaches OSS at its first COMMIT, close or upload (ossfs's "no zero-byte PUT on
 *     create"), and a crash before that leaves the client a handle of nothing (NFS3ERR_STALE)
 */
public record Export(String path, VirtualFileSystem fs, boolean readOnly, List<Cidr> clients, Squash squash, int anonUid,
    int anonGid, boolean secure, int id, boolean durableCreate) {

  /** The default anonymous uid and gid (nobody/nogroup). */
  public static final int NOBODY = 65534;

  public Export {
    Objects.requireNonNull(fs, "fs");
    Objects.requireNonNull(squash, "squash");
    path = checkPath(path);
    clients = List.copyOf(clients);
    if (clients.isEmpty()) {
      throw new IllegalArgumentException("export " + path + " allows no client; use '*' for everyone");
    }
  }

  /** A builder with the defaults: read-write, every client, root_squash, anonuid/anongid 65534, insecure ports. */
  public static Builder builder(String path, VirtualFileSystem fs) {
    return new Builder(path, fs);
  }

  /** A stable export id from the path: the first 4 bytes of its SHA-256, never 0. */
  public static int idOf(String path) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(checkPath(path).getBytes(StandardCharsets.UTF_8));
      int v = ((d[0] & 0xff) << 24) | ((d[1] & 0xff) << 16) | ((d[2] & 0xff) << 8) | (d[3] & 0xff);
      return v == 0 ? 1 : v;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** True if a client at {@code address} may use this export. */
  public boolean allows(java.net.InetAddress address) {
    for (Cidr c : clients) {
      if (c.matches(address)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Checks an export path: absolute, at most MNTPATHLEN (1024, RFC 1813 section 5.0) bytes, no empty, "." or ".."
   * component.
   *
   * @return the path
   * @throws IllegalArgumentException naming what is wrong
   */
  public static String checkPath(String p) {
    if (p == null || !p.startsWith("/") || p.length() > io.ossgw.nfs.xdr.Nfs3.MNTPATHLEN) {
      throw new IllegalArgumentException("export path must be absolute (e.g. /bucket): " + p);
    }
    if (p.equals("/")) {
      return p;
    }
    for (String c : p.substring(1).split("/", -1)) {
      if (c.isEmpty() || c.equals(".") || c.equals("..")) {
        throw new IllegalArgumentException("malformed export path: " + p);
      }
    }
    return p;
  }

  /** Builds an {@link Export}; every setter has the exports(5) default. */
  public static final class Builder {
    private final String path;
    private final VirtualFileSystem fs;
    private boolean readOnly;
    private List<Cidr> clients = List.of(Cidr.ANY);
    private Squash squash = Squash.ROOT_SQUASH;
    private int anonUid = NOBODY;
    private int anonGid = NOBODY;
    private boolean secure;
    private Integer id;
    private boolean durableCreate;

    private Builder(String path, VirtualFileSystem fs) {
      this.path = path;
      this.fs = fs;
    }

    public Builder readOnly(boolean ro) {
      this.readOnly = ro;
      return this;
    }

    /** Allowed client networks as CIDR strings ({@code "10.0.0.0/8"}, {@code "*"}); replaces the default "*". */
    public Builder clients(List<String> cidrs) {
      this.clients = cidrs.stream().map(Cidr::parse).toList();
      return this;
    }

    public Builder squash(Squash s) {
      this.squash = s;
      return this;
    }

    public Builder anonUid(int uid) {
      this.anonUid = uid;
      return this;
    }

    public Builder anonGid(int gid) {
      this.anonGid = gid;
      return this;
    }

    /** Require privileged source ports (below 1024). */
    public Builder secure(boolean s) {
      this.secure = s;
      return this;
    }

    /** An explicit export id (default: {@link Export#idOf(String)} of the path). */
    public Builder id(int exportId) {
      this.id = exportId;
      return this;
    }

    /** Created files reach OSS before the CREATE (OPEN4_CREATE) reply ({@link Export#durableCreate}); default off. */
    public Builder durableCreate(boolean on) {
      this.durableCreate = on;
      return this;
    }

    public Export build() {
      return new Export(path, fs, readOnly, clients, squash, anonUid, anonGid, secure, id != null ? id : idOf(path),
          durableCreate);
    }
  }
}
