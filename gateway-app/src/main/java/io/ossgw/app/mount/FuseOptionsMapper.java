package io.ossgw.app.mount;

import io.ossgw.core.config.MountOptions;
import io.ossgw.core.config.OptionCatalog;
import io.ossgw.core.config.OptionKind;
import io.ossgw.core.config.OptionSpec;
import io.ossgw.fuse.FuseOptions;
import java.time.Duration;
import java.util.Map;

/**
 * Turns the FUSE-kind {@code -o} options of the {@link OptionCatalog} into {@link FuseOptions}. Options with a typed
 * field in FuseOptions are mapped onto it; the others ({@code allow_root}, {@code noatime}, {@code noexec}, ...) pass
 * through to libfuse unchanged, as ossfs does. Defaults are FuseOptions's (entry/attr timeout 60 s, negative 5 s,
 * 128 KiB requests, 1 MiB read-ahead; see reference/fuse.md §7).
 */
public final class FuseOptionsMapper {
  private FuseOptionsMapper() {}

  /**
   * @param bucket the bucket (the default {@code fsname} is {@code oss:<bucket>})
   * @param options the parsed {@code -o} options (engine options are ignored here)
   * @param singleThreaded ossfs {@code -s}
   * @param fuseDebug libfuse request tracing (ossfs {@code -d -d})
   * @param statCacheExpire the engine's attribute cache TTL, or null for "never expires": kernel timeouts are capped
   *     at it so the kernel never caches longer than the engine
   * @param mountTimeout how long mounting may take
   * @throws IllegalArgumentException naming the option whose value is bad
   */
  public static FuseOptions map(String bucket, MountOptions options, boolean singleThreaded, boolean fuseDebug,
      Duration statCacheExpire, Duration mountTimeout) {
    FuseOptions.Builder b = FuseOptions.builder()
        .fsname("oss:" + bucket)
        .subtype("ossgw")
        .singleThreaded(singleThreaded)
        .debug(fuseDebug)
        .mountTimeout(mountTimeout);
    for (Map.Entry<String, String> e : options.asMap().entrySet()) {
      String name = e.getKey();
      OptionSpec spec = OptionCatalog.find(name).orElse(null);
      if (spec == null || spec.kind() != OptionKind.FUSE) {
        continue;
      }
      switch (name) {
        case "allow_other" -> b.allowOther(true);
        case "nonempty" -> b.nonempty(true);
        case "hard_remove" -> b.hardRemove(true);
        case "default_permissions" -> b.defaultPermissions(true);
        case "kernel_cache" -> b.kernelCache(true);
        case "auto_cache" -> b.autoCache(true);
        case "direct_io" -> b.directIo(true);
        case "ro" -> b.readOnly(true);
        case "rw" -> b.readOnly(false);
        case "use_ino", "big_writes" -> { } // always on
        case "attr_timeout" -> b.attrTimeout(options.getDouble(name, 60));
        case "entry_timeout" -> b.entryTimeout(options.getDouble(name, 60));
        case "negative_timeout" -> b.negativeTimeout(options.getDouble(name, 5));
        case "max_read" -> b.maxRead(intOption(options, name));
        case "max_write" -> b.maxWrite(intOption(options, name));
        case "max_readahead" -> b.maxReadahead(intOption(options, name));
        case "fsname" -> b.fsname(e.getValue());
        case "subtype" -> b.subtype(e.getValue());
        default -> b.extraOption(e.getValue().isEmpty() ? name : name + "=" + e.getValue());
      }
    }
    FuseOptions built;
    try {
      built = b.build();
    } catch (IllegalArgumentException ex) {
      throw new IllegalArgumentException("bad FUSE option: " + ex.getMessage(), ex);
    }
    return statCacheExpire == null ? built : built.withTimeoutsCappedAt(statCacheExpire.toSeconds());
  }

  private static int intOption(MountOptions options, String name) {
    long v = options.getLong(name, 0);
    if (v <= 0 || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("option '" + name + "' must be a positive number of bytes, got " + v);
    }
    return (int) v;
  }
}
