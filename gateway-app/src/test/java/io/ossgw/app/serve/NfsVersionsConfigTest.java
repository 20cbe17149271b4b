package io.ossgw.app.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.app.config.ConfigMappingTestAccess;
import io.ossgw.app.config.DefaultOptionsConfig;
import io.ossgw.app.config.ExportsConfig;
import io.ossgw.app.config.NfsConfig;
import io.ossgw.app.config.OssConfig;
import io.ossgw.core.engine.Engine;
import io.ossgw.emulator.OssEmulator;
import io.ossgw.testsupport.Slowdown;
import io.smallrye.config.SmallRyeConfig;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ossgw.nfs.versions}, {@code ossgw.nfs.v4.lease-time} and {@code ossgw.nfs.v4.grace-time}: defaults, the
 * start-up messages for bad values, and what a started {@link NfsFrontEnd} answers over TCP for each versions setting
 * (an in-memory emulator behind the export's engine).
 */
class NfsVersionsConfigTest {
  private static final int NFS = 100003;
  private static final int MOUNT = 100005;
  private static final int PROG_MISMATCH = 2;
  private static final int PROG_UNAVAIL = 1;

  @TempDir
  Path dir;

  private static NfsConfig nfs(Map<String, String> props) {
    return ConfigMappingTestAccess.config(props).getConfigMapping(NfsConfig.class);
  }

  @Test
  void callsInFlightAreCheckedAgainstTheHeapAtStartUp() {
    long heap = 124L << 20; // memory_limit=256
    assertThat(NfsFrontEnd.inFlightProblems(nfs(Map.of()), heap)).isEmpty();
    assertThat(NfsFrontEnd.inFlightProblems(nfs(Map.of("ossgw.nfs.max-in-flight", "256")), heap)).singleElement()
        .asString().contains("ossgw.nfs.max-in-flight=256 must be from 1 to 30", "memory_limit");
    assertThat(NfsFrontEnd.inFlightProblems(nfs(Map.of("ossgw.nfs.max-in-flight", "256")), 2L << 30)).isEmpty();
    assertThat(NfsFrontEnd.inFlightProblems(nfs(Map.of("ossgw.nfs.max-in-flight-per-address", "40")), heap))
        .singleElement().asString().contains("max-in-flight-per-address=40 must be from 1 to max-in-flight (30)");
    assertThat(NfsFrontEnd.inFlightProblems(nfs(Map.of("ossgw.nfs.max-in-flight-per-connection", "48")), heap))
        .singleElement().asString().contains("max-in-flight-per-connection=48");
  }

  @Test
  void defaultsServeBothVersionsWithNinetySecondLeaseAndGrace() {
    NfsConfig c = nfs(Map.of());
    assertThat(c.versions()).containsExactly("3", "4.1");
    assertThat(NfsVersions.parse(c.versions())).isEqualTo(new NfsVersions(true, true));
    assertThat(c.v4().leaseTime()).isEqualTo(Duration.ofSeconds(90));
    assertThat(c.v4().graceTime()).isEqualTo(Duration.ofSeconds(90));
    assertThat(NfsFrontEnd.problems(c)).isEmpty();
    assertThat(NfsFrontEnd.problems(nfs(Map.of("ossgw.nfs.versions", " 4.1 , 3 ")))).isEmpty();
    assertThat(NfsVersions.parse(nfs(Map.of("ossgw.nfs.versions", "4.1")).versions()))
        .isEqualTo(new NfsVersions(false, true));
  }

  @Test
  void otherVersionsAreRefusedNamingTheKeyAndTheAcceptedValues() {
    for (String bad : List.of("4.0", "4.2", "4", "3,4.2", "2")) {
      assertThat(NfsFrontEnd.problems(nfs(Map.of("ossgw.nfs.versions", bad)))).as(bad).singleElement()
          .asString().startsWith("ossgw.nfs.versions: '").contains("accepted: 3 and 4.1");
    }
    assertThatThrownBy(() -> NfsVersions.parse(List.of(" ", ""))).hasMessageContaining("ossgw.nfs.versions names no");
  }

  @Test
  void rpcbindWithoutVersionThreeIsRefused() {
    assertThat(NfsFrontEnd.problems(nfs(Map.of("ossgw.nfs.versions", "4.1", "ossgw.nfs.rpcbind", "true"))))
        .singleElement().asString().startsWith("ossgw.nfs.rpcbind=true needs version 3 in ossgw.nfs.versions");
    assertThat(NfsFrontEnd.problems(nfs(Map.of("ossgw.nfs.versions", "3", "ossgw.nfs.rpcbind", "true")))).isEmpty();
  }

  @Test
  void leaseAndGraceOutOfRangeAreRefused() {
    for (String bad : List.of("0s", "1500ms", "2h", "-5s")) {
      assertThat(NfsFrontEnd.problems(nfs(Map.of("ossgw.nfs.v4.lease-time", bad)))).as(bad).singleElement()
          .asString().startsWith("ossgw.nfs.v4.lease-time must be whole seconds from 1s to 1h");
    }
    for (String bad : List.of("-1s", "61m")) {
      assertThat(NfsFrontEnd.problems(nfs(Map.of("ossgw.nfs.v4.grace-time", bad)))).as(bad).singleElement()
          .asString().startsWith("ossgw.nfs.v4.grace-time must be from 0s to 1h");
    }
    assertThat(NfsFrontEnd.problems(nfs(Map.of("ossgw.nfs.v4.lease-time", "10s", "ossgw.nfs.v4.grace-time", "0s"))))
        .isEmpty();
  }

  @Test
  void mountCommandsNameWhatEachVersionNeeds() {
    assertThat(NfsFrontEnd.mountCommands(new NfsVersions(true, true), 2049, false, "/b")).containsExactly(
        "mount -t nfs HOST:/b /mnt", "mount -t nfs -o vers=3,proto=tcp,port=2049,mountport=2049,nolock HOST:/b /mnt");
    assertThat(NfsFrontEnd.mountCommands(new NfsVersions(false, true), 3049, false, "/b"))
        .containsExactly("mount -t nfs -o vers=4.1,port=3049 HOST:/b /mnt");
    assertThat(NfsFrontEnd.mountCommands(new NfsVersions(true, false), 2049, true, "/b"))
        .containsExactly("mount -t nfs -o vers=3 HOST:/b /mnt");
  }

  @Test
  void versionsThreeOnlyServesNoVersionFourAndVersionsFourOneOnlyServesNoVersionThree() throws Exception {
    try (OssEmulator emulator = OssEmulator.builder().bind("127.0.0.1").port(0).dataDir(null).bucket("ver-bkt")
        .credentials("AK", "SK").authEnabled(true).build().start()) {
      try (Started s = start(emulator, "3")) {
        assertThat(nullCall(s.port(), NFS, 4)).containsExactly(PROG_MISMATCH, 3, 3);
        assertThat(nullCall(s.port(), NFS, 3)).containsExactly(0);
        assertThat(nullCall(s.port(), MOUNT, 3)).containsExactly(0);
      }
      try (Started s = start(emulator, "4.1")) {
        assertThat(nullCall(s.port(), NFS, 3)).containsExactly(PROG_MISMATCH, 4, 4);
        assertThat(nullCall(s.port(), MOUNT, 3)).containsExactly(PROG_UNAVAIL);
        assertThat(nullCall(s.port(), NFS, 4)).containsExactly(0);
        assertThat(s.frontEnd().server().v4Compound()).isNotNull();
      }
      try (Started s = start(emulator, "3,4.1")) {
        assertThat(nullCall(s.port(), NFS, 3)).containsExactly(0);
        assertThat(nullCall(s.port(), NFS, 4)).containsExactly(0);
        assertThat(nullCall(s.port(), NFS, 2)).containsExactly(PROG_MISMATCH, 3, 4);
      }
    }
  }

  /** A started front end and the engines it made; closing stops both. */
  private record Started(NfsFrontEnd frontEnd, List<Engine> engines) implements AutoCloseable {
    int port() {
      return frontEnd.port();
    }

    @Override
    public void close() {
      frontEnd.close();
      engines.forEach(Engine::close);
    }
  }

  private Started start(OssEmulator emulator, String versions) {
    Map<String, String> p = new HashMap<>();
    p.put("ossgw.oss.endpoint", emulator.endpoint());
    p.put("ossgw.oss.access-key-id", "AK");
    p.put("ossgw.oss.access-key-secret", "SK");
    p.put("ossgw.exports.v.bucket", "ver-bkt");
    p.put("ossgw.nfs.bind", "127.0.0.1");
    p.put("ossgw.nfs.port", "0");
    p.put("ossgw.nfs.versions", versions);
    SmallRyeConfig c = ConfigMappingTestAccess.config(p);
    Path state = dir.resolve("state-" + versions);
    var exports = ExportPlanner.plan(c.getConfigMapping(OssConfig.class), c.getConfigMapping(ExportsConfig.class),
        c.getConfigMapping(DefaultOptionsConfig.class), state, null, Map.of(), List.of());
    List<Engine> engines = new ArrayList<>();
    NfsFrontEnd fe = NfsFrontEnd.start(c.getConfigMapping(NfsConfig.class), exports, state, x -> {
      Engine e = Engine.start(x.engine());
      engines.add(e);
      return e;
    }, null);
    return new Started(fe, engines);
  }

  /**
   * One NULL call (procedure 0, AUTH_NONE) over TCP; returns the accept_stat, followed by the low and high versions
   * for PROG_MISMATCH (RFC 5531 §9).
   */
  private static int[] nullCall(int port, int prog, int vers) throws Exception {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout((int) Slowdown.scaledMillis(10_000));
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      int[] call = {0x80000000 | 40, 1, 0, 2, prog, vers, 0, 0, 0, 0, 0};
      for (int w : call) {
        out.writeInt(w);
      }
      out.flush();
      DataInputStream in = new DataInputStream(s.getInputStream());
      in.readInt(); // record mark: the reply is read field by field
      assertThat(in.readInt()).isEqualTo(1); // xid
      assertThat(in.readInt()).isEqualTo(1); // REPLY
      assertThat(in.readInt()).as("MSG_ACCEPTED").isZero();
      in.readInt(); // verifier flavor
      in.skipNBytes((in.readInt() + 3) & ~3);
      int stat = in.readInt();
      if (stat == PROG_MISMATCH) {
        return new int[] {stat, in.readInt(), in.readInt()};
      }
      return new int[] {stat};
    }
  }
}
