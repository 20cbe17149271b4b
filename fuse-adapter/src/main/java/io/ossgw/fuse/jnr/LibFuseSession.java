package io.ossgw.fuse.jnr;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.ossgw.fuse.MountException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;

/**
 * The libfuse 2.9 calls {@code fuse_main_real} makes, minus its signal handling (libfuse's {@code lib/helper.c}:
 * {@code fuse_setup} = parse + {@code fuse_mount} + {@code fuse_new} + {@code fuse_set_signal_handlers};
 * {@code fuse_teardown} = {@code fuse_remove_signal_handlers} + {@code fuse_unmount} + {@code fuse_destroy}).
 *
 * <p>Why not {@code fuse_main_real}: libfuse keeps one process-wide "signal session"; each {@code fuse_main} sets it
 * to its own session and each teardown expects to find its own there. With two mounts in one JVM (the demo's mount and
 * its SMB share's) the first teardown prints {@code fuse: fuse_remove_signal_handlers: unknown session}. In a JVM the
 * signals belong to the JVM anyway (libfuse only takes signals whose handler is still the default).
 *
 * <p>Bound through the FFM API with {@code dlvsym} and the FUSE_2.6 symbol versions: a plain {@code dlsym("fuse_new")}
 * finds the unversioned {@code fuse_new@Base}, libfuse's compatibility entry for the 2.1 signature.
 */
final class LibFuseSession {
  private static final Linker LINKER = Linker.nativeLinker();
  private static final int RTLD_NOW = 2;
  private static volatile LibFuseSession instance;

  private final MethodHandle mount;
  private final MethodHandle create;
  private final MethodHandle loop;
  private final MethodHandle loopMt;
  private final MethodHandle unmount;
  private final MethodHandle destroy;
  private final MethodHandle freeArgs;
  private final MethodHandle getContext;

  private LibFuseSession(MemorySegment lib) throws Throwable {
    mount = bind(lib, "fuse_mount", "FUSE_2.6", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    create = bind(lib, "fuse_new", "FUSE_2.6",
        FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
    loop = bind(lib, "fuse_loop", "FUSE_2.2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    loopMt = bind(lib, "fuse_loop_mt", "FUSE_2.2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    unmount = bind(lib, "fuse_unmount", "FUSE_2.6", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
    destroy = bind(lib, "fuse_destroy", "FUSE_2.2", FunctionDescriptor.ofVoid(ADDRESS));
    freeArgs = bind(lib, "fuse_opt_free_args", "FUSE_2.5", FunctionDescriptor.ofVoid(ADDRESS));
    // FUSE_2.8: the struct fuse_context with umask (the FUSE_2.2 entry is the compat22 one)
    getContext = bind(lib, "fuse_get_context", "FUSE_2.8", FunctionDescriptor.of(ADDRESS));
  }

  /** The calls of the libfuse2 already loaded by jnr ({@code libfuse.so.2}). */
  static LibFuseSession get() {
    LibFuseSession s = instance;
    if (s != null) {
      return s;
    }
    synchronized (LibFuseSession.class) {
      if (instance == null) {
        try (Arena a = Arena.ofConfined()) {
          MethodHandle dlopen = LINKER.downcallHandle(LINKER.defaultLookup().find("dlopen").orElseThrow(),
              FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
          MemorySegment lib = (MemorySegment) dlopen.invokeExact(a.allocateFrom("libfuse.so.2"), RTLD_NOW);
          if (lib.equals(MemorySegment.NULL)) {
            throw new MountException("libfuse2 (libfuse.so.2) cannot be loaded. Install it with: apt-get install "
                + "libfuse2 fuse");
          }
          instance = new LibFuseSession(lib);
        } catch (MountException e) {
          throw e;
        } catch (Throwable t) {
          throw new MountException("cannot bind libfuse2's fuse_mount/fuse_new/fuse_loop: " + t, t);
        }
      }
      return instance;
    }
  }

  private static MethodHandle bind(MemorySegment lib, String name, String version, FunctionDescriptor fd)
      throws Throwable {
    MethodHandle dlvsym = LINKER.downcallHandle(LINKER.defaultLookup().find("dlvsym").orElseThrow(),
        FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    try (Arena a = Arena.ofConfined()) {
      MemorySegment f = (MemorySegment) dlvsym.invokeExact(lib, a.allocateFrom(name), a.allocateFrom(version));
      if (f.equals(MemorySegment.NULL)) {
        throw new MountException("libfuse.so.2 has no " + name + "@" + version);
      }
      return LINKER.downcallHandle(f, fd);
    }
  }

  /** libfuse2's {@code struct fuse_context *fuse_get_context(void)}, for {@link io.ossgw.fuse.FuseContextMark}. */
  MethodHandle getContext() {
    return getContext;
  }

  /**
   * Mounts, serves until the file system is unmounted, then unmounts and destroys, like {@code fuse_main_real}.
   *
   * @param args libfuse's arguments after {@code fuse_parse_cmdline}: program name, {@code -d}, {@code -o ...}
   * @param operations address of a {@code struct fuse_operations} of {@code operationsSize} bytes
   * @return 0 after an unmount, 1 if mounting failed or the loop failed (libfuse prints why to stderr)
   */
  int run(Path mountpoint, List<String> args, long operations, long operationsSize, boolean multithreaded)
      throws Throwable {
    try (Arena a = Arena.ofShared()) {
      MemorySegment argv = a.allocate(ADDRESS, args.size() + 1L);
      for (int i = 0; i < args.size(); i++) {
        argv.setAtIndex(ADDRESS, i, a.allocateFrom(args.get(i)));
      }
      // struct fuse_args { int argc; char **argv; int allocated; }; allocated 0: libfuse must not free our argv
      MemorySegment fuseArgs = a.allocate(24, 8);
      fuseArgs.set(JAVA_INT, 0, args.size());
      fuseArgs.set(ADDRESS, 8, argv);
      fuseArgs.set(JAVA_INT, 16, 0);
      MemorySegment mp = a.allocateFrom(mountpoint.toString());
      MemorySegment ops = MemorySegment.ofAddress(operations);
      try {
        MemorySegment ch = (MemorySegment) mount.invokeExact(mp, fuseArgs);
        if (ch.equals(MemorySegment.NULL)) {
          return 1;
        }
        MemorySegment fuse = (MemorySegment) create.invokeExact(ch, fuseArgs, ops, operationsSize,
            MemorySegment.NULL);
        if (fuse.equals(MemorySegment.NULL)) {
          unmount.invokeExact(mp, ch);
          return 1;
        }
        int res;
        try {
          res = multithreaded ? (int) loopMt.invokeExact(fuse) : (int) loop.invokeExact(fuse);
        } finally {
          unmount.invokeExact(mp, ch);
          destroy.invokeExact(fuse);
        }
        return res == -1 ? 1 : 0;
      } finally {
        freeArgs.invokeExact(fuseArgs);
      }
    }
  }
}
