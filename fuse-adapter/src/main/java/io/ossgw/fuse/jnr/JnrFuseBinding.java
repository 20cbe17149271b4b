package io.ossgw.fuse.jnr;

import io.ossgw.fuse.FuseBinding;
import io.ossgw.fuse.FuseContextMark;
import io.ossgw.fuse.FuseFilesystem;
import io.ossgw.fuse.FuseOptions;
import io.ossgw.fuse.MountException;
import java.lang.ref.Reference;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Struct;
import ru.serce.jnrfuse.LibFuse;

/**
 * The jnr-fuse 0.5.8 binding: libfuse 2.9's high-level API through jnr-ffi. It uses jnr-fuse's library interface and
 * struct mappings but not its {@code AbstractFuseFS}: it builds the operations table itself ({@link JnrCallbacks})
 * and makes {@code fuse_main_real}'s calls itself without its signal handling ({@link LibFuseSession}), so mounting
 * has no fixed 2 s wait, no per-mount shutdown hook (the gateway's {@code FuseMounter} handles both) and no libfuse
 * signal handlers.
 *
 * <p>libfuse2 limits: requests of at most 128 KiB ({@code max_read}/{@code max_write} are capped at {@value
 * FuseOptions#LIBFUSE2_MAX_REQUEST}), no readdirplus, global (not per-entry) cache timeouts.
 */
public final class JnrFuseBinding implements FuseBinding {
  private static final Object LOCK = new Object();
  private static volatile LibFuse lib;

  /** Creates the binding; the library is loaded on first use. */
  public JnrFuseBinding() {}

  @Override
  public String name() {
    return "jnr-fuse 0.5.8 (libfuse2)";
  }

  @Override
  public void load() {
    library();
  }

  private static LibFuse library() {
    LibFuse l = lib;
    if (l != null) {
      return l;
    }
    synchronized (LOCK) {
      if (lib == null) {
        lib = loadLibrary();
      }
      return lib;
    }
  }

  private static LibFuse loadLibrary() {
    Throwable first;
    try {
      return LibraryLoader.create(LibFuse.class).failImmediately().load("fuse");
    } catch (Throwable t) {
      first = t;
    }
    try {
      // Debian's libfuse2 ships only the versioned name; libfuse.so comes with libfuse-dev.
      return LibraryLoader.create(LibFuse.class).failImmediately().load("libfuse.so.2");
    } catch (Throwable t) {
      t.addSuppressed(first);
      throw new MountException(
          "libfuse2 (libfuse.so.2) cannot be loaded: " + t.getMessage()
              + ". Install it with: apt-get install libfuse2 fuse",
          t);
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
    opts.add("big_writes"); // without it libfuse2 sends 4 KiB writes
    opts.add("max_write=" + Math.min(o.maxWrite(), FuseOptions.LIBFUSE2_MAX_REQUEST));
    opts.add("max_read=" + Math.min(o.maxRead(), FuseOptions.LIBFUSE2_MAX_REQUEST));
    opts.add("max_readahead=" + o.maxReadahead());
    opts.add("entry_timeout=" + seconds(o.entryTimeout()));
    opts.add("attr_timeout=" + seconds(o.attrTimeout()));
    opts.add("negative_timeout=" + seconds(o.negativeTimeout()));
    add(opts, o.useIno(), "use_ino");
    add(opts, o.defaultPermissions(), "default_permissions");
    add(opts, o.allowOther(), "allow_other");
    add(opts, o.kernelCache(), "kernel_cache");
    add(opts, o.autoCache(), "auto_cache");
    add(opts, o.directIo(), "direct_io");
    add(opts, o.readOnly(), "ro");
    add(opts, o.nonempty(), "nonempty");
    add(opts, o.hardRemove(), "hard_remove");
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

  /**
   * Serves {@code fs} the way {@code fuse_main_real} does (parse, mount, new, loop, unmount, destroy) but without
   * installing libfuse's signal handlers (see {@link LibFuseSession}).
   */
  @Override
  public int run(FuseFilesystem fs, Path mountpoint, FuseOptions options) {
    LibFuse l = library();
    LibFuseSession session = LibFuseSession.get();
    fs.requestMark(new FuseContextMark(session.getContext()));
    int maxRequest = Math.min(Math.max(options.maxRead(), options.maxWrite()), FuseOptions.LIBFUSE2_MAX_REQUEST);
    JnrCallbacks callbacks = new JnrCallbacks(l, fs, maxRequest);
    // What fuse_parse_cmdline leaves of fuse_main's argv: the program name and the -d/-o arguments; -s (single
    // thread) chooses the loop below, and the mount point is passed on its own.
    List<String> argv = new ArrayList<>();
    argv.add("ossgw");
    for (String a : arguments(options)) {
      if (!a.equals("-s")) {
        argv.add(a);
      }
    }
    fs.mounting();
    try {
      return session.run(mountpoint, argv, Struct.getMemory(callbacks.operations()).address(),
          Struct.size(callbacks.operations()), !options.singleThreaded());
    } catch (MountException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new MountException("libfuse failed serving " + mountpoint + ": " + t, t);
    } finally {
      // The closures and the operations struct must outlive the native loop.
      Reference.reachabilityFence(callbacks);
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
