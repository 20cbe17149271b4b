package io.ossgw.app.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ossgw.exports.<name>.*}: the NFS exports {@code serve} offers (settings as in exports(5)). Example:
 *
 * <pre>
 * ossgw.exports.data.bucket=my-bucket
 * ossgw.exports.data.prefix=/datasets
 * ossgw.exports.data.clients=10.0.0.0/8,192.168.1.0/24
 * ossgw.exports.data.squash=root
 * ossgw.exports.data.options.stat_cache_expire=60
 * </pre>
 *
 * Clients then run {@code mount -t nfs gateway:/my-bucket/datasets /mnt} (NFSv4.1 on port 2049), or for NFSv3
 * {@code mount -t nfs -o vers=3,proto=tcp,port=2049,mountport=2049,nolock gateway:/my-bucket/datasets /mnt}. The
 * same settings (clients, squash, read-only) apply to both versions.
 */
@ConfigMapping(prefix = "ossgw.exports")
public interface ExportsConfig {
  /** The exports by name (a label for logs and errors). Default: none, and then no NFS server runs. */
  @WithParentName
  Map<String, Export> all();

  /** One export. */
  interface Export {
    /** {@code ossgw.exports.<name>.bucket}: the bucket. Required. */
    String bucket();

    /** {@code ossgw.exports.<name>.prefix}: the sub-path exported, e.g. {@code /a/b}. Default: the whole bucket. */
    Optional<String> prefix();

    /**
     * {@code ossgw.exports.<name>.path}: the path clients mount. Default {@code /BUCKET}, or {@code /BUCKET/PREFIX}
     * with a prefix. File handles stay valid across restarts as long as it stays the same.
     */
    Optional<String> path();

    /** {@code ossgw.exports.<name>.read-only}: refuse every change with NFS3ERR_ROFS. Default {@code false}. */
    @WithDefault("false")
    boolean readOnly();

    /**
     * {@code ossgw.exports.<name>.clients}: client networks allowed, comma-separated CIDRs ({@code 10.0.0.0/8},
     * {@code 192.168.1.7}, {@code *}); others get MNT3ERR_ACCES / NFS3ERR_ACCES. Default {@code *} (everyone).
     */
    @WithDefault("*")
    List<String> clients();

    /**
     * {@code ossgw.exports.<name>.squash}: {@code root} (root_squash: uid/gid 0 become anon-uid/anon-gid),
     * {@code all} (all_squash) or {@code none} (no_root_squash). Default {@code root}.
     */
    @WithDefault("root")
    SquashMode squash();

    /** {@code ossgw.exports.<name>.anon-uid}: the uid squashed callers get. Default 65534 (nobody). */
    @WithDefault("65534")
    int anonUid();

    /** {@code ossgw.exports.<name>.anon-gid}: the gid squashed callers get. Default 65534 (nogroup). */
    @WithDefault("65534")
    int anonGid();

    /** {@code ossgw.exports.<name>.secure}: only accept calls from source ports below 1024. Default {@code false}. */
    @WithDefault("false")
    boolean secure();

    /**
     * {@code ossgw.exports.<name>.options.<ossfs-name>}: ossfs options of the export's engine (caches, read-ahead,
     * multipart...), overriding {@code ossgw.options.*}; FUSE-only options are ignored. Default: none.
     */
    Map<String, String> options();
  }

  /** exports(5) identity mapping. */
  enum SquashMode { ROOT, ALL, NONE }
}
