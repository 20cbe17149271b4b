package io.ossgw.fuse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a FUSE mount is set up: kernel cache timeouts, permissions, threading, request sizes and the raw {@code -o}
 * options passed through to libfuse. Build one with {@link #builder()}; every field has a default chosen from the
 * measurements in {@code shared/reference/fuse.md}.
 *
 * <p>Defaults and why:
 *
 * <ul>
 *   <li>{@code entryTimeout = attrTimeout = 60 s}: with the kernel's name and attribute caches on, a warm {@code ls -l}
 *       of 3,000 files costs one GETATTR upcall instead of ~15,000 (fuse.md §3). 60 s suits a mostly single-writer
 *       gateway; they must stay at or below the engine's own metadata cache ({@code stat_cache_expire}, 900 s by
 *       default), see {@link #withTimeoutsCappedAt}.
 *   <li>{@code negativeTimeout = 5 s}: repeated lookups of missing names (shells, compilers, {@code git}) are answered
 *       by the kernel for a short while; short, because another writer may create the name in OSS.
 *   <li>{@code defaultPermissions = true}: the kernel checks mode bits against the caller, so the adapter does not.
 *   <li>{@code singleThreaded = false}: with a network backend one slow request must not block all others; see
 *       {@code docs/fuse-threading.md} for what the multithreaded jnr-fuse loop costs.
 *   <li>{@code maxRead = 1 MiB}, {@code maxWrite = 256 KiB} ({@link #DEFAULT_MAX_WRITE} says why not 1 MiB): libfuse
 *       3 (jfuse) negotiates them, 8x and 2x fewer upcalls per byte than 128 KiB; the jnr-fuse binding caps both at
 *       libfuse 2.9's 131072 ({@code big_writes} is always on there, because without it libfuse2 sends 4 KiB writes,
 *       5-15x slower).
 *   <li>{@code maxReadahead = 1 MiB}; {@code kernelCache}, {@code autoCache}, {@code directIo} off (page cache per
 *       open, mmap works); {@code useIno = true} (the engine's stable inode numbers show in {@code ls -i}).
 *   <li>{@code hardRemove = false}: libfuse keeps an unlinked open file under a {@code .fuse_hidden} name so that
 *       fstat(2) of it still works ({@code st_nlink} 0); the adapter keeps that name in memory only, it is never an
 *       object ({@link FuseFilesystem#rename}). With {@code hard_remove} libfuse forgets the node's path at unlink
 *       and answers fstat's GETATTR itself with ENOENT (libfuse 2) or ESTALE (libfuse 3).
 *   <li>{@code fsname = "ossgw"}, {@code subtype = "ossgw"}: the app should set {@code fsname = "oss:<bucket>"}; the
 *       mount then shows as {@code oss:<bucket> on /mnt type fuse.ossgw}.
 *   <li>{@code mountTimeout = unmountTimeout = 10 s}: how long {@link FuseMounter#mount} (from the binding's call
 *       into libfuse: its preparation before is JVM work, slow only on a busy machine) and {@link
 *       MountedFilesystem#close()} wait for the kernel mount to appear or disappear.
 * </ul>
 *
 * @param entryTimeout seconds the kernel caches a name lookup ({@code entry_timeout}); 0 disables
 * @param attrTimeout seconds the kernel caches attributes ({@code attr_timeout}); 0 disables
 * @param negativeTimeout seconds the kernel caches "no such name" ({@code negative_timeout}); 0 disables
 * @param allowOther let users other than the mounting one access the mount ({@code allow_other}); needed by Samba;
 *     as non-root it also needs {@code user_allow_other} in /etc/fuse.conf
 * @param defaultPermissions kernel-side permission checks ({@code default_permissions})
 * @param singleThreaded serve all requests on one thread ({@code -s})
 * @param maxRead largest READ request in bytes ({@code max_read}); libfuse2 bindings cap it at 131072
 * @param maxWrite largest WRITE request in bytes ({@code max_write}); libfuse2 bindings cap it at 131072
 * @param maxReadahead kernel readahead in bytes ({@code max_readahead})
 * @param kernelCache keep file pages across opens ({@code kernel_cache}); only for immutable or read-mostly buckets
 * @param autoCache keep pages across opens unless mtime/size changed ({@code auto_cache})
 * @param directIo bypass the page cache ({@code direct_io}): fastest for large streaming, breaks mmap
 * @param readOnly mount read-only ({@code ro}); writes fail with EROFS in the kernel
 * @param fsname the source shown in mount tables ({@code fsname}), e.g. {@code oss:bucket}
 * @param subtype the type suffix ({@code subtype}): the mount shows as {@code fuse.<subtype>}
 * @param useIno report the engine's inode numbers ({@code use_ino})
 * @param nonempty allow mounting over a non-empty directory ({@code nonempty})
 * @param hardRemove unlink open files immediately instead of hiding them ({@code hard_remove})
 * @param debug libfuse debug output of every request to stderr ({@code -d}); very verbose
 * @param extraOptions further raw {@code -o} options passed through unchanged, after the generated ones (so they
 *     override them)
 * @param mountTimeout how long mounting may take before it is abandoned
 * @param unmountTimeout how long closing waits for the mount to disappear
 */
public record FuseOptions(
    double entryTimeout,
    double attrTimeout,
    double negativeTimeout,
    boolean allowOther,
    boolean defaultPermissions,
    boolean singleThreaded,
    int maxRead,
    int maxWrite,
    int maxReadahead,
    boolean kernelCache,
    boolean autoCache,
    boolean directIo,
    boolean readOnly,
    String fsname,
    String subtype,
    boolean useIno,
    boolean nonempty,
    boolean hardRemove,
    boolean debug,
    List<String> extraOptions,
    Duration mountTimeout,
    Duration unmountTimeout) {

  /** Largest request size libfuse 2.9 negotiates, in bytes. */
  public static final int LIBFUSE2_MAX_REQUEST = 131072;

  /**
   * Default largest WRITE request, in bytes: 256 KiB. A WRITE's bytes are copied twice in a row, by the kernel into
   * libfuse's request buffer and by pwrite(2) from it into the spool file's page cache; at 1 MiB the buffer has left
   * the CPU cache before the second copy (perf: {@code copy_folio_from_iter_atomic} 30 % of the writing gateway's
   * samples against 5 % at 128 KiB), and a GiB written cost 2.7-3.6 CPU-s against 1.9-2.2 with 256 KiB
   * (docs/benchmarks.md "libfuse 3 by default (issue 14)"). Reads keep 1 MiB: their bytes go from the read-ahead
   * buffer into the reply in one copy.
   */
  public static final int DEFAULT_MAX_WRITE = 256 << 10;

  /** Largest request size any binding supports (libfuse3 with 256 pages), in bytes. */
  public static final int MAX_REQUEST = 1 << 20;

  /** Validates every field. @throws IllegalArgumentException on a negative timeout, a bad size or name */
  public FuseOptions {
    checkTimeout("entryTimeout", entryTimeout);
    checkTimeout("attrTimeout", attrTimeout);
    checkTimeout("negativeTimeout", negativeTimeout);
    checkSize("maxRead", maxRead);
    checkSize("maxWrite", maxWrite);
    if (maxReadahead < 0) {
      throw new IllegalArgumentException("maxReadahead must be >= 0: " + maxReadahead);
    }
    checkName("fsname", fsname);
    checkName("subtype", subtype);
    extraOptions = List.copyOf(extraOptions);
    for (String o : extraOptions) {
      if (o.isBlank() || o.startsWith("-") || o.chars().anyMatch(Character::isISOControl)) {
        throw new IllegalArgumentException("not a -o option: '" + o + "'");
      }
    }
    Objects.requireNonNull(mountTimeout, "mountTimeout");
    Objects.requireNonNull(unmountTimeout, "unmountTimeout");
    if (mountTimeout.isNegative() || mountTimeout.isZero() || unmountTimeout.isNegative() || unmountTimeout.isZero()) {
      throw new IllegalArgumentException("mount and unmount timeouts must be positive");
    }
  }

  /** The defaults described above. */
  public static FuseOptions defaults() {
    return builder().build();
  }

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder initialised from these options. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Always true: libfuse2 without {@code big_writes} sends 4 KiB writes; libfuse3 has no such option. */
  public boolean bigWrites() {
    return true;
  }

  /**
   * These options with entry, attribute and negative timeouts lowered to at most {@code maxSeconds}: the kernel must
   * not cache longer than the engine's metadata cache ({@code stat_cache_expire}) does, or it would serve attributes
   * the engine has already dropped.
   */
  public FuseOptions withTimeoutsCappedAt(double maxSeconds) {
    checkTimeout("maxSeconds", maxSeconds);
    return toBuilder()
        .entryTimeout(Math.min(entryTimeout, maxSeconds))
        .attrTimeout(Math.min(attrTimeout, maxSeconds))
        .negativeTimeout(Math.min(negativeTimeout, maxSeconds))
        .build();
  }

  private static void checkTimeout(String name, double seconds) {
    if (!(seconds >= 0) || Double.isInfinite(seconds)) {
      throw new IllegalArgumentException(name + " must be a finite number of seconds >= 0: " + seconds);
    }
  }

  private static void checkSize(String name, int bytes) {
    if (bytes < 4096 || bytes > MAX_REQUEST) {
      throw new IllegalArgumentException(name + " must be 4096.." + MAX_REQUEST + " bytes: " + bytes);
    }
  }

  private static void checkName(String name, String value) {
    Objects.requireNonNull(value, name);
    // libfuse splits -o lists at commas and the kernel shows these in /proc/self/mountinfo (space-separated)
    if (value.isEmpty() || value.chars().anyMatch(c -> c == ',' || c == '\\' || Character.isWhitespace(c))) {
      throw new IllegalArgumentException(name + " must be non-empty without commas, backslashes or spaces: '" + value + "'");
    }
  }

  /** Mutable builder for {@link FuseOptions}; every setter returns {@code this}. */
  public static final class Builder {
    private double entryTimeout = 60;
    private double attrTimeout = 60;
    private double negativeTimeout = 5;
    private boolean allowOther;
    private boolean defaultPermissions = true;
    private boolean singleThreaded;
    private int maxRead = MAX_REQUEST;
    private int maxWrite = DEFAULT_MAX_WRITE;
    private int maxReadahead = 1 << 20;
    private boolean kernelCache;
    private boolean autoCache;
    private boolean directIo;
    private boolean readOnly;
    private String fsname = "ossgw";
    private String subtype = "ossgw";
    private boolean useIno = true;
    private boolean nonempty;
    private boolean hardRemove;
    private boolean debug;
    private final List<String> extraOptions = new ArrayList<>();
    private Duration mountTimeout = Duration.ofSeconds(10);
    private Duration unmountTimeout = Duration.ofSeconds(10);

    private Builder() {}

    private Builder(FuseOptions o) {
      entryTimeout = o.entryTimeout;
      attrTimeout = o.attrTimeout;
      negativeTimeout = o.negativeTimeout;
      allowOther = o.allowOther;
      defaultPermissions = o.defaultPermissions;
      singleThreaded = o.singleThreaded;
      maxRead = o.maxRead;
      maxWrite = o.maxWrite;
      maxReadahead = o.maxReadahead;
      kernelCache = o.kernelCache;
      autoCache = o.autoCache;
      directIo = o.directIo;
      readOnly = o.readOnly;
      fsname = o.fsname;
      subtype = o.subtype;
      useIno = o.useIno;
      nonempty = o.nonempty;
      hardRemove = o.hardRemove;
      debug = o.debug;
      extraOptions.addAll(o.extraOptions);
      mountTimeout = o.mountTimeout;
      unmountTimeout = o.unmountTimeout;
    }

    /** Seconds the kernel caches name lookups; default 60. */
    public Builder entryTimeout(double seconds) {
      entryTimeout = seconds;
      return this;
    }

    /** Seconds the kernel caches attributes; default 60. */
    public Builder attrTimeout(double seconds) {
      attrTimeout = seconds;
      return this;
    }

    /** Seconds the kernel caches failed lookups; default 5. */
    public Builder negativeTimeout(double seconds) {
      negativeTimeout = seconds;
      return this;
    }

    /** Access by other users ({@code allow_other}); default off. */
    public Builder allowOther(boolean on) {
      allowOther = on;
      return this;
    }

    /** Kernel permission checks ({@code default_permissions}); default on. */
    public Builder defaultPermissions(boolean on) {
      defaultPermissions = on;
      return this;
    }

    /** One serving thread ({@code -s}); default off. */
    public Builder singleThreaded(boolean on) {
      singleThreaded = on;
      return this;
    }

    /** Largest READ in bytes; default 131072. */
    public Builder maxRead(int bytes) {
      maxRead = bytes;
      return this;
    }

    /** Largest WRITE in bytes; default 131072. */
    public Builder maxWrite(int bytes) {
      maxWrite = bytes;
      return this;
    }

    /** Kernel readahead in bytes; default 1048576. */
    public Builder maxReadahead(int bytes) {
      maxReadahead = bytes;
      return this;
    }

    /** Keep pages across opens ({@code kernel_cache}); default off. */
    public Builder kernelCache(boolean on) {
      kernelCache = on;
      return this;
    }

    /** Keep pages unless mtime/size changed ({@code auto_cache}); default off. */
    public Builder autoCache(boolean on) {
      autoCache = on;
      return this;
    }

    /** Bypass the page cache ({@code direct_io}); default off. */
    public Builder directIo(boolean on) {
      directIo = on;
      return this;
    }

    /** Read-only mount ({@code ro}); default off. */
    public Builder readOnly(boolean on) {
      readOnly = on;
      return this;
    }

    /** Mount source name, e.g. {@code oss:bucket}; default {@code ossgw}. */
    public Builder fsname(String name) {
      fsname = name;
      return this;
    }

    /** Type suffix ({@code fuse.<subtype>}); default {@code ossgw}. */
    public Builder subtype(String name) {
      subtype = name;
      return this;
    }

    /** Report the engine's inode numbers ({@code use_ino}); default on. */
    public Builder useIno(boolean on) {
      useIno = on;
      return this;
    }

    /** Allow a non-empty mount point ({@code nonempty}); default off. */
    public Builder nonempty(boolean on) {
      nonempty = on;
      return this;
    }

    /** Forget an open file's name at unlink ({@code hard_remove}); default off (see the class comment). */
    public Builder hardRemove(boolean on) {
      hardRemove = on;
      return this;
    }

    /** libfuse request tracing to stderr ({@code -d}); default off. */
    public Builder debug(boolean on) {
      debug = on;
      return this;
    }

    /** Adds raw {@code -o} options (each like {@code uid=1000} or {@code noatime}), passed after the generated ones. */
    public Builder extraOption(String... options) {
      extraOptions.addAll(List.of(options));
      return this;
    }

    /** Replaces the raw {@code -o} pass-through options. */
    public Builder extraOptions(List<String> options) {
      extraOptions.clear();
      extraOptions.addAll(options);
      return this;
    }

    /** How long mounting may take; default 10 s. */
    public Builder mountTimeout(Duration timeout) {
      mountTimeout = timeout;
      return this;
    }

    /** How long closing waits for the mount to go away; default 10 s. */
    public Builder unmountTimeout(Duration timeout) {
      unmountTimeout = timeout;
      return this;
    }

    /** @throws IllegalArgumentException if a value is out of range */
    public FuseOptions build() {
      return new FuseOptions(
          entryTimeout,
          attrTimeout,
          negativeTimeout,
          allowOther,
          defaultPermissions,
          singleThreaded,
          maxRead,
          maxWrite,
          maxReadahead,
          kernelCache,
          autoCache,
          directIo,
          readOnly,
          fsname,
          subtype,
          useIno,
          nonempty,
          hardRemove,
          debug,
          extraOptions,
          mountTimeout,
          unmountTimeout);
    }
  }
}
