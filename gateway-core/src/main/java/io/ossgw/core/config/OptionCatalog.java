package io.ossgw.core.config;

import static io.ossgw.core.config.OptionKind.ACCEPTED;
import static io.ossgw.core.config.OptionKind.ENGINE;
import static io.ossgw.core.config.OptionKind.FUSE;
import static io.ossgw.core.config.OptionKind.NOT_IMPLEMENTED;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every {@code -o} option name ossgw knows: the ossfs 1.91.10 table (reference/ossfs-compat.md §4), the libfuse-2
 * options ossfs passes through, and ossgw's own additions. The README options table is generated from this catalog
 * ({@code ossgw mount --list-options}), so it stays true.
 */
public final class OptionCatalog {
  private static final Map<String, OptionSpec> SPECS = new LinkedHashMap<>();

  static {
    // --- endpoint and credentials
    engine("url", "https://oss-cn-hangzhou.aliyuncs.com", "URL", "OSS endpoint including the scheme (alias host=)");
    engine("host", null, "URL", "alias of url=");
    engine("region", "cn-hangzhou", "region id", "region for V4 signatures");
    flag("sigv4", "sign requests with OSS V4 (OSS4-HMAC-SHA256); ossgw's default");
    flag("sigv1", "sign requests with OSS V1 (HMAC-SHA1) instead of V4");
    engine("passwd_file", null, "path", "credentials file: AK:SK or bucket:AK:SK lines; refused if others can read it");
    accepted("use_path_request_style", "path-style URLs; ossgw uses them whenever the endpoint is an IP or localhost");
    engine("retries", "5", "count", "attempts per OSS request on 5xx, 429, timeouts and resets");
    engine("connect_timeout", "300", "seconds", "TCP connect timeout");
    engine("readwrite_timeout", "120", "seconds", "socket read/write timeout");
    engine("data_path", "lean", "lean/sdk", "PutObject/UploadPart/ranged GET/HeadObject/ListObjectsV2/CopyObject/DeleteObject/DeleteMultipleObjects/AppendObject/Initiate-, Complete-, Abort- and ListMultipartUploads/UploadPartCopy over ossgw's own HTTP/1.1 client (http:// and https:// endpoints, V4) or aliyun-sdk-oss");
    // --- metadata and caches
    engine("stat_cache_expire", "900", "seconds", "attribute cache TTL from insert; -1 = never expire");
    engine("stat_cache_interval_expire", null, "seconds", "attribute cache TTL, refreshed on every hit (sliding)");
    engine("max_stat_cache_size", "100000", "entries", "attribute cache entries at 400 bytes each (the listings get as much again), at most an eighth of the heap each; 0 disables caching");
    flag("disable_noobj_cache", "do not cache 'no such file' answers, nor list a directory to answer the next missing names in it (SEMANTICS.md Caches)");
    accepted("listobjectsv2", "use ListObjectsV2; always on in ossgw");
    engine("list_object_max_keys", "1000", "count", "keys per LIST page (1000 is the OSS maximum)");
    accepted("complement_stat", "synthesise read permission for objects without x-oss-meta-mode (always on)");
    flag("readdir_optimize", "build listing attributes from LIST only, never HEAD (chmod/chown still work in ossgw)");
    engine("readdir_check_size", "0", "bytes", "with readdir_optimize, HEAD objects up to this size anyway (ossfs compat)");
    flag("symlink_in_meta", "store new symlink targets in x-oss-meta-symlink-target instead of the body");
    flag("notsup_compat_dir", "recognise only dir/ markers and implicit prefixes, not old 'dir' / 'dir_$folder$' objects");
    engine("uid", null, "uid", "owner shown for every file (default: x-oss-meta-uid, else the mounting user)");
    engine("gid", null, "gid", "group shown for every file");
    engine("umask", "0000", "octal", "mask applied to every mode shown");
    engine("mp_umask", "0000", "octal", "mask for the mount point's own mode");
    engine("multireq_max", "20", "count", "parallel HEAD requests when a listing needs attributes");
    // --- write path
    engine("multipart_size", "10", "MB", "multipart part size (min 5); files at least this large upload in parts while written");
    engine("parallel_count", "5", "count", "parts uploaded in parallel per file");
    engine("multipart_threshold", "25", "MB", "accepted for compatibility (ossfs uses it only for metadata copies)");
    engine("multipart_copy_size", "512", "MB", "part size of UploadPartCopy when copying large objects");
    engine("singlepart_copy_limit", "512", "MB", "objects above this are copied with UploadPartCopy, not CopyObject");
    flag("nomultipart", "never use multipart upload: one PutObject per file (max 5 GB)");
    engine("tmpdir", "/tmp", "path", "directory of the local write spool (written bytes go through its page cache: on "
        + "XFS they cost 7-9 % less CPU than on ext4; not tmpfs, which costs more and is memory)");
    engine("max_dirty_data", "5120", "MB", "upload a file mid-write once this much of it is unsaved (min 50, -1 off)");
    flag("nomixupload", "never UploadPartCopy unchanged bytes: appends and partial overwrites re-upload the whole file; disables max_dirty_data");
    engine("incomplete_mpu_abort", null, "age", "at start, also abort other writers' multipart uploads under the prefix older than the age (ossfs form 1Y2M3D4h5m6s, e.g. 24h; default off: only this mount's own leftovers)");
    flag("enable_content_md5", "send Content-MD5 with every PutObject and UploadPart");
    // --- persistent data cache (io.ossgw.core.diskcache)
    engine("use_cache", "", "path", "keep data read from OSS in DIR (one sparse file per object, ETag-checked, LRU, kept across restarts)");
    engine("ensure_diskfree", "50", "MB", "with use_cache, evict least-recently-used data to keep this much disk free (default multipart_size x parallel_count)");
    engine("free_space_ratio", "0", "%", "with use_cache, keep this percentage of the disk free (not with ensure_diskfree)");
    flag("del_cache", "delete the use_cache data of this mount at start and at unmount");
    flag("check_cache_dir_exist", "refuse to mount when the use_cache directory does not exist (default: create it)");
    engine("fake_diskfree", null, "MB", "test only: pretend the use_cache disk has this much free space");
    // --- read path
    flag("direct_read", "sequential reads prefetched into memory (ossgw's default read path); turns use_cache off");
    engine("direct_read_chunk_size", "4", "MB", "size of one prefetch chunk (1..32)");
    engine("direct_read_prefetch_chunks", "8", "chunks", "largest read-ahead window per file (0 = no read-ahead; ossfs: 32)");
    engine("direct_read_prefetch_limit", "1024", "MB", "read-ahead memory for all files together (min 128)");
    engine("direct_read_backward_chunks", "1", "chunks",
        "chunks kept behind the read cursor (more, up to half of `direct_read_prefetch_chunks`, once reads arrive that late: NFS clients' pipelined READs)");
    engine("direct_read_prefetch_thread", "64", "count", "parallel ranged GETs for read-ahead");
    // --- ossgw additions
    engine("state_dir", null, "path", "where ossgw keeps its metadata store (default /var/lib/ossgw as root, else ~/.local/state/ossgw)");
    engine("memory_limit", null, "MB", "the process's memory (min 128): the launcher makes half of it the Java heap and half direct memory; read-ahead and upload buffers get a quarter of it, at most direct_read_prefetch_limit (default: the cgroup limit less a reserve, else the JVM's defaults and buffers of a quarter of the host memory)");
    // --- FUSE pass-through (libfuse 2)
    fuse("allow_other", "let other users (and Samba) use the mount");
    fuse("allow_root", "let root use the mount");
    fuse("nonempty", "allow mounting over a non-empty directory");
    fuse("hard_remove", "forget an open file's name at unlink: fstat(2) of it then fails (ENOENT, ESTALE); by default its attributes stay available with st_nlink 0");
    fuse("default_permissions", "kernel permission checks from mode/uid/gid (on by default)");
    fuse("kernel_cache", "keep file data in the page cache across opens");
    fuse("auto_cache", "drop cached data when mtime or size changes");
    fuse("direct_io", "bypass the page cache");
    fuse("ro", "read-only mount");
    fuse("rw", "read-write mount");
    fuse("big_writes", "128 KiB writes (always on)");
    fuse("use_ino", "inode numbers from ossgw (always on; kept across renames and restarts, see SEMANTICS.md)");
    fuse("readdir_ino", "inode numbers in readdir");
    fuseValue("attr_timeout", "60", "seconds", "how long the kernel caches attributes");
    fuseValue("entry_timeout", "60", "seconds", "how long the kernel caches name lookups");
    fuseValue("negative_timeout", "5", "seconds", "how long the kernel caches 'no such file'");
    fuseValue("ac_attr_timeout", null, "seconds", "auto_cache attribute timeout");
    fuseValue("max_read", "1048576", "bytes", "largest read request (libfuse2, the jnr-fuse fallback, caps at 128 KiB)");
    fuseValue("max_write", "262144", "bytes", "largest write request (libfuse2, the jnr-fuse fallback, caps at 128 KiB)");
    fuseValue("max_readahead", "1048576", "bytes", "kernel read-ahead");
    fuseValue("fsname", "oss:BUCKET", "name", "filesystem name in mount tables");
    fuseValue("subtype", "ossgw", "name", "filesystem subtype");
    fuse("noatime", "do not update access times");
    fuse("nodev", "ignored for FUSE");
    fuse("nosuid", "ignored for FUSE");
    fuse("dev", "ignored for FUSE");
    fuse("suid", "ignored for FUSE");
    fuse("exec", "ignored for FUSE");
    fuse("noexec", "no execution from the mount");
    fuse("sync", "synchronous I/O");
    fuse("async", "asynchronous I/O");
    // --- fstab words and logging accepted with no effect
    for (String w : new String[] {"auto", "noauto", "user", "nouser", "users", "_netdev", "defaults", "nofail"}) {
      accepted(w, "fstab keyword, ignored");
    }
    acceptedValue("dbglevel", "crit/err/warn/info/dbg: log level (ossgw maps it to its own logger)");
    acceptedValue("logfile", "log file of a detached (background) mount; default <state_dir>/log/mount-<mount point>.log");
    accepted("noxmlns", "legacy, ignored");
    accepted("no_time_stamp_msg", "ignored");
    accepted("noshallowcopyapi", "ignored: ossgw always uses CopyObject / UploadPartCopy");
    accepted("skip_clean_statcache_on_ro_flush", "ossgw never drops cached attributes on a read-only close");
    // --- ossfs options ossgw refuses by name until they are built
    for (String n : new String[] {
        "servicepath", "endpoint", "cloudbox_id", "ram_role", "disable_imdsv2", "credential_process", "credlib",
        "credlib_opts", "use_session_token", "public_bucket", "requester_pays", "default_acl", "storage_class",
        "use_sse", "ahbe_conf", "mime", "no_check_certificate", "ssl_verify_hostname", "nodnscache", "nosscache",
        "cipher_suites", "noua", "instance_name", "upload_traffic_limit", "download_traffic_limit",
        "nocopyapi", "norenameapi", "use_xattr", "use_wtf8", "enable_unsigned_payload", "simulate_mtime_ns_with_crc64",
        "direct_read_local_file_cache_size_mb", "curldbg", "set_check_cache_sigusr1", "f2", "bucket",
        "fd_page_size", "parallel_upload"}) {
      SPECS.put(n, new OptionSpec(n, NOT_IMPLEMENTED, false, null, "", "ossfs option not implemented by ossgw yet"));
    }
  }

  private OptionCatalog() {}

  private static void engine(String name, String def, String unit, String help) {
    SPECS.put(name, new OptionSpec(name, ENGINE, true, def, unit, help));
  }

  private static void flag(String name, String help) {
    SPECS.put(name, new OptionSpec(name, ENGINE, false, null, "", help));
  }

  private static void fuse(String name, String help) {
    SPECS.put(name, new OptionSpec(name, FUSE, false, null, "", help));
  }

  private static void fuseValue(String name, String def, String unit, String help) {
    SPECS.put(name, new OptionSpec(name, FUSE, true, def, unit, help));
  }

  private static void accepted(String name, String help) {
    SPECS.put(name, new OptionSpec(name, ACCEPTED, false, null, "", help));
  }

  private static void acceptedValue(String name, String help) {
    SPECS.put(name, new OptionSpec(name, ACCEPTED, true, null, "", help));
  }

  /** The spec of an option name, if ossgw knows it. */
  public static Optional<OptionSpec> find(String name) {
    return Optional.ofNullable(SPECS.get(name));
  }

  /**
   * The known option names nearest to a mistyped one, for "did you mean" hints: the names at the smallest optimal
   * string alignment distance (Levenshtein plus adjacent transpositions) from {@code name}, if that distance is small
   * for the name's length (1 up to 4 characters, 2 up to 8, else 3); options ossgw does not implement are left out.
   *
   * @return at most 3 names in documentation order, empty when nothing is near
   */
  public static List<String> nearest(String name) {
    int limit = name.length() <= 4 ? 1 : name.length() <= 8 ? 2 : 3;
    int best = Integer.MAX_VALUE;
    List<String> out = new ArrayList<>();
    for (OptionSpec spec : SPECS.values()) {
      if (spec.kind() == NOT_IMPLEMENTED) {
        continue;
      }
      int d = distance(name, spec.name());
      if (d > limit || d > best) {
        continue;
      }
      if (d < best) {
        best = d;
        out.clear();
      }
      out.add(spec.name());
    }
    return out.size() > 3 ? List.copyOf(out.subList(0, 3)) : List.copyOf(out);
  }

  /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps cost 1 each. */
  public static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
      }
    }
    return d[a.length()][b.length()];
  }

  /** All known options in documentation order. */
  public static Collection<OptionSpec> all() {
    return SPECS.values();
  }
}
