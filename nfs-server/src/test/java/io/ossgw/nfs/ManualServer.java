package io.ossgw.nfs;

import java.nio.file.Files;

/** Starts a gateway for manual client runs: prints the port, serves until killed. Not a test. */
final class ManualServer {
  public static void main(String[] args) throws Exception {
    try (NfsGateway g = NfsGateway.simple(Files.createTempDirectory("nfs-manual"))) {
      System.out.println("PORT " + g.port());
      System.out.println(g.url("/"));
      String last = "";
      while (true) {
        Thread.sleep(2000);
        String now = g.server.stats().toString();
        if (!now.equals(last)) {
          System.out.println(now + " emu=" + g.emu.counters());
          last = now;
        }
      }
    }
  }
}
