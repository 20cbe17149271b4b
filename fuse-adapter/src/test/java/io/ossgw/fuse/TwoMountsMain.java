package io.ossgw.fuse;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Mounts two {@link InMemoryVfs} in one JVM (like the demo: its mount and its SMB share's), reads through both,
 * unmounts the second first and then the first, and prints {@code DONE}: libfuse's own stderr lines show up in the
 * child's output, which {@link SignalSessionTest} checks.
 */
public final class TwoMountsMain {
  private TwoMountsMain() {}

  public static void main(String[] args) throws Exception {
    Path a = Path.of(args[0]);
    Path b = Path.of(args[1]);
    MountedFilesystem ma = FuseMounter.mount(new InMemoryVfs(), a, FuseOptions.builder().fsname("oss:a").build());
    MountedFilesystem mb = FuseMounter.mount(new InMemoryVfs(), b, FuseOptions.builder().fsname("oss:b").build());
    Files.writeString(a.resolve("x"), "a");
    Files.writeString(b.resolve("x"), "b");
    System.out.println("READ " + Files.readString(a.resolve("x")) + Files.readString(b.resolve("x")));
    mb.close();
    ma.close();
    System.out.println("DONE");
  }
}
