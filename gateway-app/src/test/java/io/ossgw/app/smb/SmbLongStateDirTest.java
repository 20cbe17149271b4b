package io.ossgw.app.smb;

import static org.assertj.core.api.Assertions.assertThat;

import com.hierynomus.msfscc.fileinformation.FileIdBothDirectoryInformation;
import com.hierynomus.mssmb2.SMB2Dialect;
import com.hierynomus.smbj.SMBClient;
import com.hierynomus.smbj.auth.AuthenticationContext;
import com.hierynomus.smbj.connection.Connection;
import com.hierynomus.smbj.session.Session;
import com.hierynomus.smbj.share.DiskShare;
import io.ossgw.app.mount.FuseMounterAdapter;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.engine.Engine;
import io.ossgw.emulator.OssEmulator;
import io.ossgw.fuse.FuseOptions;
import io.ossgw.testsupport.Slowdown;
import java.io.ByteArrayInputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * smbd with a state dir so long that its UNIX sockets ({@code lock/msg.sock/PID}, {@code ncalrpc/np/...}) would not
 * fit the 108-byte {@code sun_path} of {@code sockaddr_un} (unix(7)): {@link SmbLayout} puts Samba's socket
 * directories in a short private directory instead, and removes it at stop. Real smbd, FUSE and smbj.
 */
class SmbLongStateDirTest {
  static final String BUCKET = "smb-long";
  static final String USER = "ossgw-test1";
  static final String PASSWORD = "l0ng-dir pass";

  @TempDir
  Path tmp;

  @Test
  void smbdServesWhenTheStateDirIsLongerThanASocketPath() throws Exception {
    SambaInstalled.require("smbd", "smbpasswd", "pdbedit");
    Path stateDir = tmp.resolve("d".repeat(60)).resolve("e".repeat(40)).resolve("smb");
    assertThat(stateDir.resolve("lock/msg.sock/4194304").toString().length()).isGreaterThan(107);
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (OssEmulator emu = OssEmulator.builder().bind("127.0.0.1").port(0).bucket(BUCKET).credentials("ak", "sk")
        .authEnabled(true).build().start()) {
      Engine engine = Engine.start(EngineConfig.fromOptions(BUCKET, "", MountOptions.parse(List.of(
          "url=" + emu.endpoint())), new Credentials("ak", "sk"), 0, 0, tmp.resolve("engine")));
      SmbService smb = null;
      try {
        var conf = new com.aliyun.oss.ClientBuilderConfiguration();
        conf.setSignatureVersion(com.aliyun.oss.common.comm.SignVersion.V4);
        var sdk = com.aliyun.oss.OSSClientBuilder.create().endpoint(emu.endpoint())
            .credentialsProvider(new com.aliyun.oss.common.auth.DefaultCredentialProvider("ak", "sk"))
            .clientConfiguration(conf).region("cn-hangzhou").build();
        sdk.putObject(BUCKET, "hello.txt", new ByteArrayInputStream("hi\n".getBytes()));
        sdk.shutdown();
        SmbSettings settings = new SmbSettings("127.0.0.1", port, SambaTools.require("smbd", null), 1,
            Duration.ofSeconds(5), List.of(new SmbUser(USER, PASSWORD)), stateDir);
        FuseOptions fuse = FuseOptions.builder().fsname("oss:" + BUCKET).subtype("ossgw").build();
        smb = SmbService.start(settings, List.of(new SmbShare("data", BUCKET, engine.fileSystem(), fuse, false,
            List.of(USER), false)), new FuseMounterAdapter());
        Path sockets = smb.layout().lockDir().getParent();
        assertThat(sockets.toString().length()).isLessThan(stateDir.toString().length());
        try (SMBClient client = new SMBClient(com.hierynomus.smbj.SmbConfig.builder()
            .withDialects(SMB2Dialect.SMB_3_1_1).withTimeout(Slowdown.scaledMillis(30_000), TimeUnit.MILLISECONDS).build())) {
          Connection c = client.connect("127.0.0.1", port);
          Session session = c.authenticate(new AuthenticationContext(USER, PASSWORD.toCharArray(), "WORKGROUP"));
          try (DiskShare share = (DiskShare) session.connectShare("data")) {
            assertThat(share.list("").stream().map(FileIdBothDirectoryInformation::getFileName))
                .contains("hello.txt");
          }
        }
        smb.close();
        assertThat(sockets).doesNotExist();
        smb = null;
      } finally {
        if (smb != null) {
          smb.close();
        }
        engine.close();
      }
    }
  }
}
