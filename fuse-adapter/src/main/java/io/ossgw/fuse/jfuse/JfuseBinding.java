package io.ossgw.fuse.jfuse;

import io.ossgw.fuse.FuseBinding;
import io.ossgw.fuse.FuseContextMark;
import io.ossgw.fuse.FuseFilesystem;
import io.ossgw.fuse.FuseOptions;
import io.ossgw.fuse.MountException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.cryptomator.jfuse.api.Fuse;
import org.cryptomator.jfuse.api.FuseBuilder;
import org.cryptomator.jfuse.api.FuseMount;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jfuse 0.7.3 binding, the default ({@link io.ossgw.fuse.FuseBindings}): libfuse 3's high-level API through Java's
 * FFM API (no JNI, no jffi thread attach churn), 1 MiB requests, READDIRPLUS with attributes ({@link
 * JfuseOperations#readdir}), session settings in {@link JfuseTuning}. Needs Debian {@code libfuse3-3}; as root (or with
 * CAP_SYS_ADMIN) libfuse mounts with mount(2) itself, otherwise through {@code fusermount3} (Debian {@code fuse3});
 * the gateway unmounts with {@code fusermount}/{@code umount} ({@code Unmounter}), which work for either libfuse.
 * The JVM should run with {@code
 * --enable-native-access=ALL-UNNAMED} (FFM's restricted methods warn without it).
 *
 * <p>Serving: like {@code fuse_main}, {@link #run} parses the arguments, mounts, runs the (multithreaded or {@code
 * -s}) loop on the calling thread until the kernel unmounts, then unmounts and destroys the session. jfuse's public
 * {@code Fuse.mount} instead runs the loop on its own thread, probes the mount with a getattr of {@code
 * /jfuse_mount_probe} and gives no way to learn when the loop ends; so its protected {@code mount(List)} (parse, {@code
 * fuse_new}, {@code fuse_mount}) is called by reflection, which works while jfuse is on the class path. Before that,
 * {@link JfuseFileOps} replaces the entries for the operations that may get a NULL path (jfuse would crash on them).
 *
 * <p>Options: the jnr set without {@code big_writes} (gone in libfuse 3, requests are up to 1 MiB anyway), {@code
 * max_write}/{@code max_readahead}, {@code use_ino}, {@code hard_remove} and {@code direct_io} (no longer -o options
 * in libfuse 3: set in init, see {@link JfuseOperations#init}) and {@code nonempty} (libfuse 3 always allows it; {@code
 * FuseMounter} checks emptiness itself).
 */
public final class JfuseBinding implements FuseBinding {
  private static final Logger LOG = LoggerFactory.getLogger(JfuseBinding.class);
  private static final Object LOCK = new Object();
  private static volatile JfuseNative nat;

  /** Creates the binding; libfuse3 is loaded on first use. */
  public JfuseBinding() {}

  @Override
  public String name() {
    return "jfuse 0.7.3 (libfuse3)";
  }

  /**
   * Opens libfuse 3 and checks that it can mount here: with {@code CAP_SYS_ADMIN} (root, or a privileged container)
   * it calls mount(2) itself; without, it runs the setuid {@code fusermount3} (Debian {@code fuse3}), which the
   * {@code fuse} package of libfuse 2 does not provide.
   *
   * @throws MountException if libfuse3.so.3 cannot be opened, or it could not mount for lack of both
   */
  @Override
  public void load() {
    library();
    if (!JfuseNative.canMountDirectly() && JfuseNative.onPath("fusermount3") == null) {
      throw new MountException("libfuse3 mounts through fusermount3 for a process without CAP_SYS_ADMIN, and no"
          + " fusermount3 is on the PATH (Debian package fuse3); run as root, install fuse3, or use"
          + " -Dio.ossgw.fuse.binding=jnr");
    }
  }

  private static JfuseNative library() {
    JfuseNative n = nat;
    if (n != null) {
      return n;
    }
    synchronized (LOCK) {
      if (nat == null) {
        nat = JfuseNative.load();
      }
      return nat;
    }
  }

  @Override
  public List<String> arguments(FuseOptions o) {
    List<String> args = new ArrayList<>();
    if (o.singleThreaded()) {
      args.add("-s");
    }
    if (o.debug()) {
      args.add("-d");
    }
    List<String> opts = new ArrayList<>();
    opts.add("max_read=" + Math.min(o.maxRead(), FuseOptions.MAX_REQUEST));
    opts.add("entry_timeout=" + seconds(o.entryTimeout()));
    opts.add("attr_timeout=" + seconds(o.attrTimeout()));
    opts.add("negative_timeout=" + seconds(o.negativeTimeout()));
    add(opts, o.defaultPermissions(), "default_permissions");
    add(opts, o.allowOther(), "allow_other");
    add(opts, o.kernelCache(), "kernel_cache");
    add(opts, o.autoCache(), "auto_cache");
    add(opts, o.readOnly(), "ro");
    opts.add("fsname=" + o.fsname());
    opts.add("subtype=" + o.subtype());
    args.add("-o");
    args.add(String.join(",", opts));
    for (String extra : o.extraOptions()) {
      args.add("-o");
      args.add(extra);
    }
    return args;
  }

  @Override
  public int run(FuseFilesystem fs, Path mountpoint, FuseOptions options) {
    JfuseNative n = library();
    fs.requestMark(new FuseContextMark(n.getContext()));
    FuseBuilder builder = Fuse.builder();
    builder.setLibraryPath(n.path());
    JfuseTuning tuning = JfuseTuning.fromSystemProperties();
    ListedNames listed = ListedNames.create(Path.of(n.path()), n.getContext(), fs.stats());
    Fuse fuse = builder.build(new JfuseOperations(fs, options, builder.errno(), n, tuning, listed));
    Arena stubs = Arena.ofShared();
    try {
      new JfuseFileOps(fs, n).install(operationsStruct(fuse), stubs);
    } catch (RuntimeException e) {
      LOG.warn("cannot install the NULL-path-safe operations into jfuse: {}", e.toString());
      closeQuietly(fuse);
      stubs.close();
      listed.close();
      return 1;
    }
    List<String> argv = new ArrayList<>();
    argv.add("ossgw");
    argv.addAll(arguments(options));
    argv.add("-f"); // foreground: libfuse must not fork the JVM
    argv.add(mountpoint.toString());
    FuseMount mount;
    fs.mounting();
    try {
      mount = mountSession(fuse, argv);
    } catch (RuntimeException e) {
      LOG.warn("libfuse3 could not mount {}: {}", mountpoint, e.getMessage());
      closeQuietly(fuse);
      stubs.close();
      listed.close();
      return 1;
    }
    try {
      return mount.loop();
    } finally {
      listed.close(); // its thread writes notifications to the session destroyed below
      // After an unmount from outside, fuse_unmount sees the connection gone and does nothing (libfuse's
      // fuse_kern_unmount polls the fd for POLLERR first); then the session and the upcall stubs are freed.
      mount.unmount();
      mount.destroy();
      closeQuietly(fuse);
      stubs.close();
    }
  }

  /** jfuse's {@code struct fuse_operations} (protected in {@link Fuse}), before {@code fuse_new} copies it. */
  private static MemorySegment operationsStruct(Fuse fuse) {
    try {
      Field f = Fuse.class.getDeclaredField("fuseOperationsStruct");
      f.setAccessible(true);
      return (MemorySegment) f.get(fuse);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("jfuse's Fuse.fuseOperationsStruct is not accessible: " + e, e);
    }
  }

  private static FuseMount mountSession(Fuse fuse, List<String> argv) {
    Method m;
    try {
      m = Fuse.class.getDeclaredMethod("mount", List.class);
      m.setAccessible(true);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new MountException("jfuse's Fuse.mount(List) is not accessible (jfuse must be on the class path): " + e, e);
    }
    try {
      return (FuseMount) m.invoke(fuse, argv);
    } catch (InvocationTargetException e) {
      Throwable c = e.getCause();
      throw new MountException(c.getClass().getSimpleName() + ": " + c.getMessage()
          + " (libfuse printed the reason to stderr)", c);
    } catch (IllegalAccessException e) {
      throw new MountException("jfuse's Fuse.mount(List) is not accessible: " + e, e);
    }
  }

  private static void closeQuietly(Fuse fuse) {
    try {
      fuse.close();
    } catch (Exception e) {
      LOG.warn("closing the jfuse session failed", e);
    }
  }

  private static void add(List<String> opts, boolean on, String option) {
    if (on) {
      opts.add(option);
    }
  }

  /** libfuse parses timeouts with {@code %lf}; avoid {@code 1.0E-4} style output. */
  private static String seconds(double s) {
    return BigDecimal.valueOf(s).stripTrailingZeros().toPlainString();
  }
}
