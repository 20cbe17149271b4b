package io.ossgw.fuse.jfuse;

import io.ossgw.core.vfs.Caller;
import io.ossgw.fuse.MountException;
import io.ossgw.fuse.NativeMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * libfuse 3 itself: where the shared library is, and {@code fuse_get_context()}, which jfuse does not expose.
 *
 * <p>Debian's {@code libfuse3-3} ships only the versioned {@code libfuse3.so.3} in the multiarch directory, which is
 * not on the JVM's default {@code java.library.path}; jfuse's {@code System.loadLibrary("fuse3")} would need {@code
 * libfuse3-dev}. So the file is looked up here and handed to jfuse by path ({@code -Dio.ossgw.fuse.libfuse3=PATH}
 * overrides the search).
 */
final class JfuseNative {
  /** System property with the full path of libfuse3.so.3. */
  static final String LIBRARY_PROPERTY = "io.ossgw.fuse.libfuse3";

  static final List<String> SEARCH = List.of(
      "/usr/lib/x86_64-linux-gnu/libfuse3.so.3",
      "/lib/x86_64-linux-gnu/libfuse3.so.3",
      "/usr/lib64/libfuse3.so.3",
      "/lib64/libfuse3.so.3",
      "/usr/lib/libfuse3.so.3",
      "/usr/local/lib/libfuse3.so.3",
      "/usr/local/lib/x86_64-linux-gnu/libfuse3.so.3");

  private final String path;
  private final MethodHandle getContext;

  private JfuseNative(String path, MethodHandle getContext) {
    this.path = path;
    this.getContext = getContext;
  }

  /**
   * Finds and opens libfuse3.
   *
   * @param candidates paths to try in order (the property's value alone when it is set)
   * @throws MountException naming the Debian package when none can be opened
   */
  static JfuseNative load(List<String> candidates) {
    StringBuilder tried = new StringBuilder();
    for (String c : candidates) {
      if (!Files.isRegularFile(Path.of(c))) {
        continue;
      }
      try {
        // A global arena: the library stays open for the life of the JVM, as System.load would keep it.
        SymbolLookup lib = SymbolLookup.libraryLookup(Path.of(c), Arena.global());
        MemorySegment fn = lib.find("fuse_get_context")
            .orElseThrow(() -> new IllegalStateException("no symbol fuse_get_context"));
        MethodHandle h = Linker.nativeLinker().downcallHandle(fn, FunctionDescriptor.of(ValueLayout.ADDRESS));
        return new JfuseNative(c, h);
      } catch (RuntimeException e) {
        tried.append(' ').append(c).append(": ").append(e.getMessage()).append(';');
      }
    }
    throw new MountException("libfuse3 (libfuse3.so.3) cannot be loaded (searched " + String.join(", ", candidates)
        + (tried.isEmpty() ? "" : ";" + tried) + "). Install it with: apt-get install libfuse3-3"
        + " (the library alone; it does not conflict with the fuse package jnr-fuse needs), or set -D"
        + LIBRARY_PROPERTY + "=/path/to/libfuse3.so.3");
  }

  /** Loads from {@code -Dio.ossgw.fuse.libfuse3} if set, else from {@link #SEARCH}. */
  static JfuseNative load() {
    String p = System.getProperty(LIBRARY_PROPERTY);
    return load(p == null || p.isBlank() ? SEARCH : List.of(p));
  }

  /** True if this process has CAP_SYS_ADMIN (bit 21 of CapEff in /proc/self/status): mount(2) works directly. */
  static boolean canMountDirectly() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("CapEff:")) {
          return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << 21)) != 0;
        }
      }
    } catch (java.io.IOException | RuntimeException e) {
      return true; // cannot tell: let libfuse try and report
    }
    return true;
  }

  /** The first executable {@code name} in $PATH, /bin or /usr/bin, or null. */
  static Path onPath(String name) {
    String path = System.getenv().getOrDefault("PATH", "") + ":/bin:/usr/bin";
    for (String dir : path.split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
        return Path.of(dir, name);
      }
    }
    return null;
  }

  /** libfuse3's {@code struct fuse_context *fuse_get_context(void)}, for {@link io.ossgw.fuse.FuseContextMark}. */
  MethodHandle getContext() {
    return getContext;
  }

  /** Absolute path of the opened library. */
  String path() {
    return path;
  }

  /**
   * The requesting process's credentials from {@code fuse_get_context()} ({@code struct fuse_context}: {@code struct
   * fuse *} @0, {@code uid_t uid} @8, {@code gid_t gid} @12). Supplementary groups stay empty, as on jnr.
   */
  Caller caller() throws Throwable {
    MemorySegment ctx = NativeMemory.at((MemorySegment) getContext.invokeExact(), 16);
    return new Caller(ctx.get(ValueLayout.JAVA_INT, 8), ctx.get(ValueLayout.JAVA_INT, 12), null);
  }
}
