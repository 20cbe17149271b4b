package io.ossgw.app.smb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.fuse.FuseOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rendered smb.conf: what it says, and that Samba's own testparm accepts every line of it. */
class SmbConfTest {
  @TempDir
  Path tmp;

  static SmbShare share(String name, boolean readOnly, List<String> users, boolean guest) {
    // the renderer never touches the file system
    VirtualFileSystem fs = (VirtualFileSystem) java.lang.reflect.Proxy.newProxyInstance(
        SmbConfTest.class.getClassLoader(), new Class<?>[] {VirtualFileSystem.class}, (p, m, a) -> {
          throw new UnsupportedOperationException();
        });
    return new SmbShare(name, "bkt:/p", fs, FuseOptions.defaults(), readOnly, users, guest);
  }

  SmbSettings settings(String bind) {
    return new SmbSettings(bind, 14450, Path.of("/usr/sbin/smbd"), 1, Duration.ofSeconds(10),
        List.of(new SmbUser("alice", "pw")), tmp.resolve("smb"));
  }

  @Test
  void globalSectionKeepsEverythingInTheStateDirAndSpeaksSmb2AndUp() {
    SmbLayout l = new SmbLayout(tmp.resolve("smb"));
    String conf = SmbConf.render(l, settings("127.0.0.1"), List.of(share("data", false, List.of("alice"), false)));
    assertThat(conf)
        .contains("smb ports = 14450")
        .contains("interfaces = 127.0.0.1")
        .contains("bind interfaces only = yes")
        .contains("server min protocol = SMB2_02")
        .contains("server max protocol = SMB3_11")
        // POSIX clients (cifs -o posix) see modes, owners and symlinks; wide links stay off, which Samba requires
        .contains("smb3 unix extensions = yes")
        .contains("passdb backend = tdbsam:" + l.passdb())
        .contains("map to guest = Never")
        .contains("disable netbios = yes");
    for (String dir : List.of("private dir", "lock directory", "state directory", "cache directory", "pid directory",
        "ncalrpc dir")) {
      assertThat(conf).containsPattern(dir + " *= " + java.util.regex.Pattern.quote(l.root().toString()));
    }
    assertThat(conf).doesNotContain("/var/lib/samba").doesNotContain("/etc/samba");
  }

  @Test
  void strictSyncTurnsAClientFlushIntoAnUploadOnlyWhenAsked() {
    SmbLayout l = new SmbLayout(tmp.resolve("smb"));
    List<SmbShare> shares = List.of(share("data", false, List.of("alice"), false));
    assertThat(SmbConf.render(l, settings("127.0.0.1"), shares)).contains("strict sync = no")
        .doesNotContain("strict sync = yes");
    assertThat(SmbConf.render(l, settings("127.0.0.1").withStrictSync(true), shares)).contains("strict sync = yes")
        .doesNotContain("strict sync = no");
  }

  @Test
  void sharesUseTheObjectStoreSettings() {
    SmbLayout l = new SmbLayout(tmp.resolve("smb"));
    String conf = SmbConf.render(l, settings("0.0.0.0"), List.of(share("data", false, List.of("alice", "bob"), false),
        share("arch", true, List.of("alice"), false)));
    assertThat(conf).doesNotContain("interfaces"); // every interface
    String data = conf.substring(conf.indexOf("[data]"), conf.indexOf("[arch]"));
    assertThat(data)
        .contains("path = " + l.mountpoint("data"))
        .contains("read only = no")
        .contains("guest ok = no")
        .contains("valid users = alice bob")
        .contains("store dos attributes = no")
        .contains("ea support = no")
        .contains("kernel oplocks = no")
        .contains("kernel share modes = no")
        .contains("posix locking = no")
        .contains("strict sync = no")
        .contains("aio read size = 0")
        .contains("smbd:writetimeupdatedelay = 2000000000")
        .contains("map archive = no")
        .contains("force user = root")
        .contains("wide links = no");
    assertThat(conf.substring(conf.indexOf("[arch]"))).contains("read only = yes");
  }

  @Test
  void aGuestShareMapsUnknownUsersToTheGuestAccount() {
    String conf = SmbConf.render(new SmbLayout(tmp), settings("127.0.0.1"),
        List.of(share("pub", true, List.of(), true)));
    assertThat(conf).contains("map to guest = Bad User").contains("guest ok = yes")
        .doesNotContain("valid users");
  }

  @Test
  void testparmAcceptsEveryParameter() throws Exception {
    SambaInstalled.require("testparm");
    SmbLayout l = new SmbLayout(tmp.resolve("smb"));
    l.create(List.of("data", "pub"));
    Files.writeString(l.conf(), SmbConf.render(l, settings("127.0.0.1"),
        List.of(share("data", false, List.of("alice"), false), share("pub", true, List.of(), true))));
    SambaTools.Result r = SambaTools.run(List.of(SambaTools.find("testparm").orElseThrow().toString(), "-s",
        "--suppress-prompt", l.conf().toString()), null);
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).doesNotContainIgnoringCase("unknown parameter")
        .doesNotContainIgnoringCase("ignoring")
        .doesNotContain("found in service section")
        .contains("Loaded services file OK.");
  }
}
