package io.ossgw.app.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithParentName;
import java.util.Map;

/**
 * {@code ossgw.options.<ossfs-name>}: ossfs {@code -o} options applied to every mount (a mount's own
 * {@code ossgw.mounts.<name>.options.*} win), e.g. {@code ossgw.options.stat_cache_expire=300}. Default: none.
 */
@ConfigMapping(prefix = "ossgw.options")
public interface DefaultOptionsConfig {
  /** Option name to value; flags take {@code true}/{@code false}. */
  @WithParentName
  Map<String, String> values();
}
