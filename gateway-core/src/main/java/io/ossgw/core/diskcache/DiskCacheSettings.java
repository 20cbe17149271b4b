package io.ossgw.core.diskcache;

import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import java.nio.file.Path;

/**
 * The ossfs options of the persistent local data cache (reference/ossfs-compat.md §3.6 and §4): {@code use_cache=DIR},
 * {@code ensure_diskfree=MB}, {@code free_space_ratio=%}, {@code del_cache}, {@code check_cache_dir_exist} and the
 * test-only {@code fake_diskfree=MB}.
 *
 * @param dir the {@code use_cache} directory
 * @param ensureDiskfree bytes to keep free on the cache's file system ({@code ensure_diskfree}, MB); when neither
 *     it nor {@code free_space_ratio} is given, {@code multipart_size x parallel_count} (50 MB by default), the room
 *     s3fs/ossfs keep for uploads
 * @param freeSpaceRatio percent of the file system to keep free ({@code free_space_ratio}; 0 = none)
 * @param delCache delete this mount's cache at start and at unmount ({@code del_cache})
 * @param checkDirExist refuse to start when {@code dir} does not exist instead of creating it
 *     ({@code check_cache_dir_exist})
 * @param fakeDiskfree when positive, pretend the file system has this many bytes free besides the cache's own data
 *     ({@code fake_diskfree}, MB; for tests, as in ossfs)
 */
public record DiskCacheSettings(
    Path dir, long ensureDiskfree, int freeSpaceRatio, boolean delCache, boolean checkDirExist, long fakeDiskfree) {

  /**
   * The settings from {@code -o} options, or null when {@code use_cache} is absent or empty, or {@code direct_read} is
   * set (as in ossfs, direct reads use no disk): the cache is off.
   *
   * @throws IllegalArgumentException when both {@code ensure_diskfree} and {@code free_space_ratio} are set (ossfs
   *     refuses that too) or a value is out of range
   */
  public static DiskCacheSettings fromOptions(MountOptions o) {
    String dir = o.get("use_cache").orElse("").strip();
    if (dir.isEmpty()) {
      return null;
    }
    if (o.has("direct_read")) {
      // ossfs: direct_read serves reads from memory chunks, never from the disk cache (reference/ossfs-compat.md §3.7)
      System.getLogger(DiskCacheSettings.class.getName()).log(System.Logger.Level.WARNING,
          "use_cache is ignored with direct_read: reads are served from memory only");
      return null;
    }
    long free = o.getLong("ensure_diskfree", 0);
    long ratio = o.getLong("free_space_ratio", 0);
    if (free < 0) {
      throw new IllegalArgumentException("option 'ensure_diskfree' must be 0 or more (MB)");
    }
    if (ratio < 0 || ratio > 100) {
      throw new IllegalArgumentException("option 'free_space_ratio' must be between 0 and 100 (%)");
    }
    if (o.has("ensure_diskfree") && o.has("free_space_ratio")) {
      throw new IllegalArgumentException("options 'ensure_diskfree' and 'free_space_ratio' cannot be used together");
    }
    long fake = o.getLong("fake_diskfree", 0);
    if (!o.has("ensure_diskfree") && ratio == 0) {
      free = o.getLong("multipart_size", 10) * o.getLong("parallel_count", 5);
    }
    return new DiskCacheSettings(Path.of(dir), free * EngineConfig.MB, (int) ratio, o.has("del_cache"),
        o.has("check_cache_dir_exist"), Math.max(0, fake) * EngineConfig.MB);
  }
}
