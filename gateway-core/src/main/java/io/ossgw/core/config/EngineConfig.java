package io.ossgw.core.config;

import io.ossgw.core.diskcache.DiskCacheSettings;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Everything the engine needs, with ossfs option names and defaults (reference/ossfs-compat.md §4). Sizes are bytes,
 * durations are {@link Duration}s; {@link #fromOptions} converts the ossfs units (MB, seconds) and validates limits.
 *
 * @param endpoint OSS endpoint URL with scheme ({@code url=})
 * @param bucket the bucket
 * @param prefix the mounted sub-path as a key prefix: "" for the whole bucket, else {@code "a/b/"}
 * @param region V4 region ({@code region=})
 * @param signatureV4 OSS V4 signatures (default) or V1 ({@code sigv1})
 * @param credentials the AccessKey pair
 * @param retries attempts per request on transient errors ({@code retries=})
 * @param connectTimeout {@code connect_timeout=}
 * @param readwriteTimeout {@code readwrite_timeout=}
 * @param statCacheExpire attribute/negative/listing cache TTL, or null for "never" ({@code stat_cache_expire=-1})
 * @param statCacheSliding TTL refreshed on each hit ({@code stat_cache_interval_expire=})
 * @param maxStatCacheSize entries ({@code max_stat_cache_size=}); 0 disables the cache
 * @param negativeCache cache "no such file" ({@code disable_noobj_cache} turns it off)
 * @param listMaxKeys keys per ListObjectsV2 page
 * @param readdirOptimize listing attributes never HEAD ({@code readdir_optimize})
 * @param readdirCheckSize with readdirOptimize, objects up to this size are HEADed anyway
 * @param multireqMax parallel HEADs for listings that need them
 * @param symlinkInMeta new symlinks keep their target in {@code x-oss-meta-symlink-target}
 * @param compatDirs recognise {@code dir} and {@code dir_$folder$} objects (off with {@code notsup_compat_dir})
 * @param uidOverride {@code uid=}, or null
 * @param gidOverride {@code gid=}, or null
 * @param umask {@code umask=} applied to every mode shown
 * @param mpUmask {@code mp_umask=} for the mount point
 * @param defaultUid owner of objects without x-oss-meta-uid (the mounting process's uid)
 * @param defaultGid group of objects without x-oss-meta-gid
 * @param multipartSize part size and multipart trigger ({@code multipart_size=}, MB)
 * @param parallelCount parts in flight per file ({@code parallel_count=})
 * @param multipartCopySize UploadPartCopy part size ({@code multipart_copy_size=}, MB)
 * @param singlepartCopyLimit above this CopyObject gives way to UploadPartCopy ({@code singlepart_copy_limit=}, MB;
 *     never above OSS's 1 GB CopyObject limit)
 * @param noMultipart one PutObject per file ({@code nomultipart})
 * @param maxDirtyData forced upload threshold in bytes, or -1 ({@code max_dirty_data=}, MB)
 * @param contentMd5 send Content-MD5 ({@code enable_content_md5})
 * @param spoolDir where write staging files live ({@code tmpdir=})
 * @param chunkSize read-ahead chunk ({@code direct_read_chunk_size=}, MB)
 * @param prefetchChunks largest read-ahead window in chunks ({@code direct_read_prefetch_chunks=})
 * @param prefetchLimit memory for read-ahead of all files ({@code direct_read_prefetch_limit=}, MB)
 * @param backwardChunks chunks kept behind the cursor ({@code direct_read_backward_chunks=})
 * @param prefetchThreads parallel read-ahead GETs ({@code direct_read_prefetch_thread=})
 * @param stateDir directory of the persistent metadata store, or null for none
 * @param diskCache the persistent local data cache ({@code use_cache=} and its options), or null when off
 * @param noMixUpload never copy unchanged bytes with UploadPartCopy when uploading a file ({@code nomixupload})
 * @param memoryLimit the process's memory in bytes ({@code memory_limit=}, MB; the read-ahead and upload buffers get
 *     a quarter of it, {@link io.ossgw.core.memory.MemoryBudget#capacity}), or -1 for the default (buffers: a quarter
 *     of the cgroup or host memory)
 * @param incompleteMpuAbort at start-up, abort every multipart upload under the prefix initiated longer ago than this
 *     ({@code incomplete_mpu_abort=}, ossfs's age form; {@link Duration#ZERO} for {@code all}), or null when off (the
 *     default: only the uploads this mount's own earlier runs left are aborted)
 * @param leanDataPath PutObject, UploadPart, ranged GetObject, HeadObject and ListObjectsV2 over ossgw's own HTTP/1.1
 *     client (http:// or https://) when signatures are V4 ({@code data_path=lean}, the default), or always through aliyun-sdk-oss
 *     ({@code data_path=sdk}); docs/benchmarks.md "Lean data path"
 */
public record EngineConfig(
    String endpoint,
    String bucket,
    String prefix,
    String region,
    boolean signatureV4,
    Credentials credentials,
    int retries,
    Duration connectTimeout,
    Duration readwriteTimeout,
    Duration statCacheExpire,
    boolean statCacheSliding,
    long maxStatCacheSize,
    boolean negativeCache,
    int listMaxKeys,
    boolean readdirOptimize,
    long readdirCheckSize,
    int multireqMax,
    boolean symlinkInMeta,
    boolean compatDirs,
    Integer uidOverride,
    Integer gidOverride,
    int umask,
    int mpUmask,
    int defaultUid,
    int defaultGid,
    long multipartSize,
    int parallelCount,
    long multipartCopySize,
    long singlepartCopyLimit,
    boolean noMultipart,
    long maxDirtyData,
    boolean contentMd5,
    Path spoolDir,
    long chunkSize,
    int prefetchChunks,
    long prefetchLimit,
    int backwardChunks,
    int prefetchThreads,
    Path stateDir,
    DiskCacheSettings diskCache,
    boolean noMixUpload,
    long memoryLimit,
    Duration incompleteMpuAbort,
    boolean leanDataPath) {

  /** One MiB; ossfs's "MB" options are MiB. */
  public static final long MB = 1024L * 1024;
  /** OSS's CopyObject limit: 1 GB. */
  public static final long COPY_OBJECT_LIMIT = 1024L * MB;
  /** Smallest non-last part OSS accepts at CompleteMultipartUpload. */
  public static final long MIN_PART_SIZE = 100 * 1024;
  /** Most parts in one upload. */
  public static final int MAX_PARTS = 10_000;

  /**
   * Builds the configuration from ossfs options, converting units and checking the limits ossfs checks.
   *
   * @param bucket the bucket
   * @param subPath the mounted sub-path ("" or "/" for the whole bucket, "/a/b" or "a/b/" otherwise)
   * @param o the parsed {@code -o} options
   * @param credentials the resolved credentials
   * @param uid the mounting process's uid (owner default)
   * @param gid the mounting process's gid
   * @param stateDir the metadata store directory, or null
   * @throws IllegalArgumentException naming the option whose value is out of range
   */
  public static EngineConfig fromOptions(
      String bucket, String subPath, MountOptions o, Credentials credentials, int uid, int gid, Path stateDir) {
    String endpoint = o.get("url").or(() -> o.get("host")).orElse("https://oss-cn-hangzhou.aliyuncs.com");
    while (endpoint.endsWith("/")) {
      endpoint = endpoint.substring(0, endpoint.length() - 1);
    }
    if (!endpoint.startsWith("http://") && !endpoint.startsWith("https://")) {
      endpoint = "https://" + endpoint;
    }
    long expire = o.getLong("stat_cache_interval_expire", o.getLong("stat_cache_expire", 900));
    long multipart = o.getLong("multipart_size", 10);
    require(multipart >= 5, "multipart_size", "at least 5 (MB)");
    int parallel = (int) o.getLong("parallel_count", 5);
    require(parallel >= 1 && parallel <= 100, "parallel_count", "between 1 and 100");
    long copyPart = o.getLong("multipart_copy_size", 512);
    require(copyPart >= 5 && copyPart <= 5 * 1024, "multipart_copy_size", "between 5 and 5120 (MB)");
    long copyLimit = Math.min(o.getLong("singlepart_copy_limit", 512) * MB, COPY_OBJECT_LIMIT);
    long dirty = o.getLong("max_dirty_data", 5120);
    require(dirty == -1 || dirty >= 50, "max_dirty_data", "-1 or at least 50 (MB)");
    long chunk = o.getLong("direct_read_chunk_size", 4);
    require(chunk >= 1 && chunk <= 32, "direct_read_chunk_size", "between 1 and 32 (MB)");
    // 8, not ossfs's 32: as fast for one reader and 10 (docs/benchmarks.md "Read path"), half the memory and less CPU
    int window = (int) o.getLong("direct_read_prefetch_chunks", 8);
    require(window >= 0 && window <= 1024, "direct_read_prefetch_chunks", "between 0 and 1024");
    long limit = o.getLong("direct_read_prefetch_limit", 1024);
    require(limit >= 128, "direct_read_prefetch_limit", "at least 128 (MB)");
    long memoryLimit = o.getLong("memory_limit", -1);
    require(memoryLimit == -1 || memoryLimit >= 128, "memory_limit", "at least 128 (MB)");
    long maxKeys = o.getLong("list_object_max_keys", 1000);
    require(maxKeys >= 1 && maxKeys <= 1000, "list_object_max_keys", "between 1 and 1000");
    long statSize = o.getLong("max_stat_cache_size", 100_000);
    require(statSize >= 0, "max_stat_cache_size", "0 or more");
    int retries = (int) o.getLong("retries", 5);
    require(retries >= 1 && retries <= 100, "retries", "between 1 and 100");
    return new EngineConfig(
        endpoint,
        bucket,
        normalizePrefix(subPath),
        o.get("region").orElse("cn-hangzhou"),
        !o.has("sigv1"),
        credentials,
        retries,
        Duration.ofSeconds(o.getLong("connect_timeout", 300)),
        Duration.ofSeconds(o.getLong("readwrite_timeout", 120)),
        expire < 0 ? null : Duration.ofSeconds(expire),
        o.has("stat_cache_interval_expire"),
        statSize,
        !o.has("disable_noobj_cache"),
        (int) maxKeys,
        o.has("readdir_optimize"),
        o.getLong("readdir_check_size", 0),
        (int) o.getLong("multireq_max", 20),
        o.has("symlink_in_meta"),
        !o.has("notsup_compat_dir"),
        o.get("uid").map(v -> (int) o.getLong("uid", 0)).orElse(null),
        o.get("gid").map(v -> (int) o.getLong("gid", 0)).orElse(null),
        o.getOctal("umask", 0),
        o.getOctal("mp_umask", 0),
        uid,
        gid,
        multipart * MB,
        parallel,
        copyPart * MB,
        copyLimit,
        o.has("nomultipart"),
        dirty < 0 ? -1 : dirty * MB,
        o.has("enable_content_md5"),
        Path.of(o.get("tmpdir").orElse(System.getProperty("java.io.tmpdir", "/tmp"))),
        chunk * MB,
        window,
        limit * MB,
        (int) o.getLong("direct_read_backward_chunks", 1),
        (int) o.getLong("direct_read_prefetch_thread", 64),
        o.get("state_dir").map(Path::of).orElse(stateDir),
        DiskCacheSettings.fromOptions(o),
        o.has("nomixupload"),
        memoryLimit < 0 ? -1 : memoryLimit * MB,
        incompleteMpuAbort(o),
        dataPath(o));
  }

  /** {@code data_path=lean|sdk}: true for lean (the default). */
  private static boolean dataPath(MountOptions o) {
    String v = o.get("data_path").orElse("lean");
    require(v.equals("lean") || v.equals("sdk"), "data_path", "lean or sdk");
    return v.equals("lean");
  }

  /** {@code incomplete_mpu_abort=all|AGE}: off when absent. */
  private static Duration incompleteMpuAbort(MountOptions o) {
    return o.get("incomplete_mpu_abort").map(io.ossgw.core.write.OrphanUploads::parseAge).orElse(null);
  }

  private static void require(boolean ok, String option, String what) {
    if (!ok) {
      throw new IllegalArgumentException("option '" + option + "' must be " + what);
    }
  }

  /** "" or "/" -> "", "/a/b" or "a/b/" -> "a/b/". */
  public static String normalizePrefix(String subPath) {
    if (subPath == null) {
      return "";
    }
    String p = subPath.strip();
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p.isEmpty() ? "" : p + "/";
  }
}
