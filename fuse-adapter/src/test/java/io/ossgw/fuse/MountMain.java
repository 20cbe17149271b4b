package io.ossgw.fuse;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.OpenFlags;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Mounts an {@link InMemoryVfs} in its own JVM, for the stale-mount test (which SIGKILLs it) and for the
 * measurements in docs/fuse-threading.md. Usage: {@code MountMain MOUNTPOINT [-s] [--files N] [--timeout SECONDS]
 * [--stats FILE]}: {@code --files} pre-creates /many/f0.. in the VFS, {@code --stats} rewrites FILE every 50 ms with
 * {@code OP=count} lines and the number of distinct Java threads that served getattr/read/write. Prints {@code MOUNTED} once live; prints the counters and unmounts on SIGTERM/SIGINT.
 */
public final class MountMain {
  private MountMain() {}

  public static void main(String[] args) throws Exception {
    Path mp = Path.of(args[0]);
    FuseOptions.Builder b = FuseOptions.builder().fsname("oss:bench");
    int files = 0;
    Path statsFile = null;
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "-s" -> b.singleThreaded(true);
        case "--files" -> files = Integer.parseInt(args[++i]);
        case "--stats" -> statsFile = Path.of(args[++i]);
        case "--timeout" -> {
          double t = Double.parseDouble(args[++i]);
          b.entryTimeout(t).attrTimeout(t);
        }
        default -> throw new IllegalArgumentException(args[i]);
      }
    }
    InMemoryVfs vfs = new InMemoryVfs();
    vfs.callerThreads = ConcurrentHashMap.newKeySet();
    if (files > 0) {
      vfs.mkdir("/many", 0755, Caller.ROOT);
      for (int i = 0; i < files; i++) {
        vfs.release(vfs.create("/many/f" + i, 0644, OpenFlags.READ_WRITE, true, Caller.ROOT));
      }
    }
    MountedFilesystem m = FuseMounter.mount(vfs, mp, b.build());
    Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("STATS " + m.stats())));
    if (statsFile != null) {
      Path out = statsFile;
      Thread t = new Thread(() -> dumpStats(m, vfs, out), "stats");
      t.setDaemon(true);
      t.start();
    }
    System.out.println("MOUNTED " + m.mountId());
    System.out.flush();
    m.awaitUnmounted();
  }

  private static void dumpStats(MountedFilesystem m, InMemoryVfs vfs, Path out) {
    Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
    while (true) {
      StringBuilder sb = new StringBuilder();
      for (FuseOp op : FuseOp.values()) {
        sb.append(op).append('=').append(m.stats().count(op)).append('\n');
      }
      sb.append("TOTAL=").append(m.stats().total()).append('\n');
      sb.append("JAVA_THREADS_SEEN=").append(vfs.callerThreads.size()).append('\n');
      try {
        Files.writeString(tmp, sb);
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Thread.sleep(50);
      } catch (Exception e) {
        return;
      }
    }
  }
}
