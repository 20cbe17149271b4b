package io.ossgw.fuse;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.OpenFlags;
import java.nio.file.Path;

/**
 * Mounts an {@link InMemoryVfs} in its own JVM, for the stale-mount test (which SIGKILLs it) and for the
 * measurements in docs/fuse-threading.md. Usage: {@code MountMain MOUNTPOINT [-s] [--files N] [--timeout SECONDS]}.
 * Prints {@code MOUNTED} once live; prints the callback counters and unmounts on SIGTERM/SIGINT.
 */
public final class MountMain {
  private MountMain() {}

  public static void main(String[] args) throws Exception {
    Path mp = Path.of(args[0]);
    FuseOptions.Builder b = FuseOptions.builder().fsname("oss:bench");
    int files = 0;
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "-s" -> b.singleThreaded(true);
        case "--files" -> files = Integer.parseInt(args[++i]);
        case "--timeout" -> {
          double t = Double.parseDouble(args[++i]);
          b.entryTimeout(t).attrTimeout(t);
        }
        default -> throw new IllegalArgumentException(args[i]);
      }
    }
    InMemoryVfs vfs = new InMemoryVfs();
    if (files > 0) {
      vfs.mkdir("/many", 0755, Caller.ROOT);
      for (int i = 0; i < files; i++) {
        vfs.release(vfs.create("/many/f" + i, 0644, OpenFlags.READ_WRITE, true, Caller.ROOT));
      }
    }
    MountedFilesystem m = FuseMounter.mount(vfs, mp, b.build());
    Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("STATS " + m.stats())));
    System.out.println("MOUNTED " + m.mountId());
    System.out.flush();
    m.awaitUnmounted();
  }
}
