package io.ossgw.app.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithParentName;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ossgw.mounts.<name>.*}: the FUSE mounts {@code serve} keeps up. Example:
 *
 * <pre>
 * ossgw.mounts.data.bucket=my-bucket
 * ossgw.mounts.data.prefix=/datasets
 * ossgw.mounts.data.mountpoint=/mnt/data
 * ossgw.mounts.data.options.stat_cache_expire=60
 * ossgw.mounts.data.options.allow_other=true
 * </pre>
 */
@ConfigMapping(prefix = "ossgw.mounts")
public interface MountsConfig {
  /** The mounts by name (the name is only a label: logs, metrics tags, health check data). Default: none. */
  @WithParentName
  Map<String, Mount> all();

  /** One mount. */
  interface Mount {
    /** {@code ossgw.mounts.<name>.bucket}: the bucket. Required. */
    String bucket();

    /** {@code ossgw.mounts.<name>.prefix}: the sub-path to mount, e.g. {@code /a/b}. Default: none (whole bucket). */
    Optional<String> prefix();

    /** {@code ossgw.mounts.<name>.mountpoint}: an existing directory. Required. */
    Path mountpoint();

    /**
     * {@code ossgw.mounts.<name>.options.<ossfs-name>}: ossfs {@code -o} options by their ossfs names (flags take
     * {@code true}/{@code false}); they override {@code ossgw.options.*}. See {@code ossgw mount --list-options}.
     * Default: none.
     */
    Map<String, String> options();
  }
}
