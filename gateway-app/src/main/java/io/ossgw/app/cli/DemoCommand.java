package io.ossgw.app.cli;

import io.ossgw.app.demo.DemoSeeder;
import io.ossgw.app.mount.FuseMounterAdapter;
import io.ossgw.app.mount.LiveMount;
import io.ossgw.app.mount.MountPlan;
import io.ossgw.app.mount.MountPlanner;
import io.ossgw.app.mount.MountSource;
import io.ossgw.app.mount.ProcessIds;
import io.ossgw.app.serve.EmbeddedEmulator;
import io.ossgw.app.smb.SambaTools;
import io.ossgw.app.smb.SmbException;
import io.ossgw.app.smb.SmbService;
import io.ossgw.app.smb.SmbSettings;
import io.ossgw.app.smb.SmbShare;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.engine.EngineException;
import io.ossgw.fuse.MountException;
import io.ossgw.nfs.NfsServer;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.Squash;
import io.quarkus.runtime.Quarkus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ossgw demo [--dir DIR]}: the zero-config demo. Starts an embedded OSS emulator storing objects under
 * {@code DIR/data}, seeds bucket {@code demo} with sample objects written through the OSS SDK, mounts it at
 * {@code DIR/mnt}, exports the same engine over NFSv4.1 and NFSv3 as {@code /demo} on 127.0.0.1 (port 2049, or any
 * free port when 2049 is taken; all_squash to the demo's own uid/gid, so every client can use the 0640 seeded files), and, where Samba is installed, shares it over SMB as the guest share {@code \\127.0.0.1\demo}
 * (port 445, or any free port when 445 is taken); prints what to try, and runs until Ctrl-C; then stops SMB and NFS,
 * unmounts and stops.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Zero-config demo: an embedded OSS emulator with a seeded bucket 'demo', mounted at DIR/mnt and "
        + "exported over NFSv4.1 and NFSv3 as 127.0.0.1:/demo and, with Samba installed, shared over SMB as "
        + "\\\\127.0.0.1\\demo.")
public class DemoCommand implements Callable<Integer> {
  static final String BUCKET = "demo";

  @Option(names = "--dir", paramLabel = "DIR",
      description = "where the demo keeps its data (DIR/data) and mount point (DIR/mnt); kept afterwards. "
          + "Default: a temporary directory, removed at the end")
  Path dir;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "0",
      description = "the emulator's port on 127.0.0.1 (default: any free port)")
  int port;

  @Option(names = "--nfs-port", paramLabel = "PORT", defaultValue = "2049",
      description = "the NFS port on 127.0.0.1 (v4.1 and v3); if it is taken, any free port (default 2049; -1: no NFS)")
  int nfsPort;

  @Option(names = "--smb-port", paramLabel = "PORT", defaultValue = "445",
      description = "the SMB port on 127.0.0.1 when Samba is installed; if it is taken, any free port (default 445; "
          + "-1: no SMB)")
  int smbPort;

  @Override
  public Integer call() throws IOException {
    boolean temporary = dir == null;
    Path base = temporary ? Files.createTempDirectory("ossgw-demo-") : dir.toAbsolutePath().normalize();
    Path data = base.resolve("data");
    Path mnt = base.resolve("mnt");
    Files.createDirectories(data);
    Files.createDirectories(mnt);
    EmbeddedEmulator emulator = null;
    LiveMount live = null;
    NfsServer nfs = null;
    SmbService smb = null;
    Signals.exitCleanlyOnTermination();
    try {
      emulator = EmbeddedEmulator.start("127.0.0.1", port, data, List.of(BUCKET), null, null);
      String endpoint = emulator.endpoint();
      DemoSeeder.seed(endpoint, BUCKET);
      MountOptions opts = MountOptions.parse(List.of("url=" + endpoint));
      MountPlan plan = MountPlanner.plan(MountSource.of(BUCKET, ""), mnt, opts, new Credentials("demo", "demo"),
          false, false, base.resolve("state"));
      live = LiveMount.start(plan, new FuseMounterAdapter());
      if (nfsPort >= 0) {
        nfs = startNfs(live, base.resolve("state"));
      }
      if (smbPort >= 0) {
        smb = startSmb(live, base.resolve("state"));
      }
      printIntro(endpoint, mnt, nfs == null ? -1 : nfs.port(), smb == null ? -1 : smb.settings().port());
      LiveMount watched = live;
      Thread.ofPlatform().daemon().name("ossgw-unmount-watch").start(() -> {
        try {
          watched.handle().awaitUnmounted();
          Quarkus.asyncExit(ExitCodes.OK);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      Quarkus.waitForExit();
      System.out.println("ossgw demo: unmounting " + mnt);
      return ExitCodes.OK;
    } catch (EngineException | MountException | IllegalArgumentException e) {
      Cli.error(e.getMessage());
      return ExitCodes.FAILED;
    } finally {
      if (smb != null) {
        smb.close();
      }
      if (nfs != null) {
        nfs.stop();
      }
      if (live != null) {
        live.close();
      }
      if (emulator != null) {
        emulator.close();
      }
      if (temporary) {
        deleteTree(base);
      }
    }
  }

  private static void printIntro(String endpoint, Path mnt, int nfsPort, int smbPort) {
    String m = mnt.toString();
    System.out.println("""

        ossgw demo: bucket '%2$s' of an embedded OSS emulator at %1$s is mounted at
          %3$s

        Try, in another terminal:
          ls -l %3$s %3$s/data
          cat %3$s/hello.txt
          cp /etc/os-release %3$s/            # a file copied in ...
          curl -s '%1$s/%2$s/?list-type=2'    # ... is now an object in the bucket (auth is off)
          # the same listing through the OSS Python SDK (needs it: pip install oss2, e.g. in a venv)
          python3 -c "import oss2; b=oss2.Bucket(oss2.Auth('any','any'), '%1$s', '%2$s'); \\
        print([o.key for o in oss2.ObjectIteratorV2(b)])"
          curl -s %1$s/-/counters             # the OSS requests the mount has made so far
        """.formatted(endpoint, BUCKET, m));
    if (nfsPort >= 0) {
      printNfs(nfsPort);
    }
    if (smbPort >= 0) {
      printSmb(smbPort);
    }
    System.out.println("Press Ctrl-C to unmount and stop.");
    System.out.flush();
  }

  /** The NFS export of the mounted engine (one cache for both): on --nfs-port, else on any free port. */
  private NfsServer startNfs(LiveMount live, Path state) {
    // all_squash to the demo's own uid/gid (the owner the mount shows for the seeded objects, which are 0640): every
    // NFS client, root (squashed to nobody by default) or not, then reads and writes as through the mount. The export
    // listens on 127.0.0.1 only.
    Export export = Export.builder("/" + BUCKET, live.engine().fileSystem()).squash(Squash.ALL_SQUASH)
        .anonUid(ProcessIds.uid()).anonGid(ProcessIds.gid()).build();
    for (int p : nfsPort == 0 ? new int[] {0} : new int[] {nfsPort, 0}) {
      try {
        // both versions, as serve's default ossgw.nfs.versions=3,4.1
        return NfsServer.builder().bind("127.0.0.1").port(p).nfsV41(true).export(export)
            .stateDir(state.resolve("nfs")).build().start();
      } catch (java.io.UncheckedIOException e) {
        System.out.println("ossgw demo: NFS port " + p + " is taken (" + e.getCause().getMessage() + "); "
            + "trying another");
      }
    }
    return null;
  }

  /**
   * The SMB share of the mounted engine: a guest share (no account to create; the demo listens on 127.0.0.1 only),
   * or null when Samba is not installed or smbd does not start.
   */
  private SmbService startSmb(LiveMount live, Path state) {
    var smbd = SambaTools.find("smbd");
    if (smbd.isEmpty()) {
      System.out.println("ossgw demo: no SMB (" + SambaTools.INSTALL_HINT + ")");
      return null;
    }
    int port = smbPort;
    if (port == 0 || !portFree(port)) {
      try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
        port = s.getLocalPort();
      } catch (IOException e) {
        return null;
      }
    }
    try {
      SmbSettings settings = new SmbSettings("127.0.0.1", port, smbd.get(), 1, java.time.Duration.ofSeconds(10),
          List.of(), state.resolve("smb"));
      SmbShare share = new SmbShare(BUCKET, BUCKET, live.engine().fileSystem("smb"), live.plan().fuse(), false,
          List.of(), true);
      return SmbService.start(settings, List.of(share), new FuseMounterAdapter());
    } catch (SmbException | MountException e) {
      System.out.println("ossgw demo: no SMB: " + e.getMessage());
      return null;
    }
  }

  private static boolean portFree(int port) {
    try (java.net.ServerSocket s = new java.net.ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static void printSmb(int port) {
    System.out.println("""
        The same bucket is shared over SMB (Samba, same engine) as the guest share \\\\127.0.0.1\\%2$s, port %1$d:
          smbclient //127.0.0.1/%2$s -p %1$d -N -m SMB3 -c 'ls; get hello.txt -'
        """.formatted(port, BUCKET));
    System.out.flush();
  }

  private static void printNfs(int port) {
    System.out.println("""
        The same bucket is exported over NFSv4.1 and NFSv3 (same engine, same cache) as 127.0.0.1:/%2$s, port %1$d;
        every client acts as the demo's owner (all_squash), so it reads and writes like the mount. With libnfs-utils
        (apt-get install libnfs-utils):
          nfs-ls 'nfs://127.0.0.1/%2$s?nfsport=%1$d&mountport=%1$d&version=3'
          nfs-cat 'nfs://127.0.0.1/%2$s/hello.txt?nfsport=%1$d&mountport=%1$d&version=3'
          nfs-cp /etc/hostname 'nfs://127.0.0.1/%2$s/from-nfs.txt?nfsport=%1$d&mountport=%1$d&version=3'
        With the kernel's NFS client (root; apt-get install nfs-common), NFSv4.1 needs only the port (on 2049 not even
        that: 'mount -t nfs 127.0.0.1:/%2$s /mnt/nfs'):
          mkdir -p /mnt/nfs && mount -t nfs -o vers=4.1,port=%1$d 127.0.0.1:/%2$s /mnt/nfs
        or NFSv3: the demo runs no rpcbind, so the options name both ports, and nolock (locks stay local):
          mkdir -p /mnt/nfs && mount -t nfs -o %3$s 127.0.0.1:/%2$s /mnt/nfs
        """.formatted(port, BUCKET, nfsMountOptions(port)));
    System.out.flush();
  }

  /** The kernel client's options for an NFSv3 server that serves NFS and MOUNT on one TCP port, without rpcbind. */
  static String nfsMountOptions(int port) {
    return "nfsvers=3,proto=tcp,mountproto=tcp,port=" + port + ",mountport=" + port + ",nolock";
  }

  private static void deleteTree(Path base) {
    try (Stream<Path> s = Files.walk(base)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException ignored) {
          // best effort: a temp directory left behind is harmless
        }
      });
    } catch (IOException ignored) {
      // best effort
    }
  }
}
