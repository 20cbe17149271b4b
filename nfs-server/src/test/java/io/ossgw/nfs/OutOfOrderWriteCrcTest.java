package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import com.aliyun.oss.ClientBuilderConfiguration;
import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSClientBuilder;
import com.aliyun.oss.common.auth.DefaultCredentialProvider;
import com.aliyun.oss.common.comm.SignVersion;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.engine.Engine;
import io.ossgw.core.observe.EngineObserver;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ForwardingObjectStore;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.util.Crc64;
import io.ossgw.emulator.OssEmulator;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.xdr.*;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * UNSTABLE WRITEs pipelined on one connection and arriving out of order (as a client with 16 WRITEs in flight sends
 * them, and the file's first WRITE not at offset 0) keep every streamed part's CRC-64 (issue 22 item 3): each part
 * goes out from the spool with the CRC of the bytes written, and the object is the bytes written.
 */
class OutOfOrderWriteCrcTest {
  private static final int MIB = 1 << 20;
  private static final int PART = 5 * MIB;

  @TempDir
  Path state;

  @Test
  void shuffledWritesInFlightSendTheirPartsWithTheWrittenCrc() throws Exception {
    Map<Integer, ContentSource> bodies = new ConcurrentHashMap<>();
    UnaryOperator<ObjectStore> spy = s -> new ForwardingObjectStore(s) {
      @Override
      public PartETag uploadPart(String key, String uploadId, int partNumber, ContentSource body) {
        bodies.put(partNumber, body);
        return delegate.uploadPart(key, uploadId, partNumber, body);
      }
    };
    byte[] data = new byte[3 * PART + 4321];
    Random rnd = new Random(3);
    rnd.nextBytes(data);
    try (OssEmulator emu = OssEmulator.builder().bind("127.0.0.1").port(0).bucket(NfsGateway.BUCKET)
        .credentials(NfsGateway.AK, NfsGateway.SK).authEnabled(true).build().start()) {
      EngineConfig c = EngineConfig.fromOptions(NfsGateway.BUCKET, "",
          MountOptions.parse(List.of("url=" + emu.endpoint(), "multipart_size=5")),
          new Credentials(NfsGateway.AK, NfsGateway.SK), 1000, 1000, state.resolve("engine"));
      Engine engine = Engine.start(c, EngineObserver.NONE, spy, UnaryOperator.identity());
      NfsServer server = NfsServer.builder().bind("127.0.0.1").port(0).stateDir(state.resolve("nfs"))
          .export(Export.builder("/" + NfsGateway.BUCKET, engine.fileSystem()).build()).build().start();
      try (NfsClient client = new NfsClient(server.port(), 1000, 1000); RawRpc rpc = new RawRpc(server.port())) {
        nfs_fh3 fh = client.create(client.root("/" + NfsGateway.BUCKET), "ooo.bin", 0644).obj();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i * MIB < data.length; i++) {
          order.add(i);
        }
        for (int from = 0; from < order.size(); from += 16) { // 16 in flight, shuffled within them
          List<Integer> window = order.subList(from, Math.min(order.size(), from + 16));
          Collections.shuffle(window, rnd);
          if (from == 0) {
            Collections.swap(window, 0, window.indexOf(1)); // offset 1 MiB first: before the stream exists
          }
          for (int i : window) {
            int off = i * MIB;
            byte[] piece = java.util.Arrays.copyOfRange(data, off, Math.min(data.length, off + MIB));
            rpc.send(RawRpc.call(100 + i, Nfs3.NFS_PROGRAM, 3, Nfs3.NFSPROC3_WRITE, 1000, 1000,
                Xdrs.toBytes(new WRITE3args(fh, off, piece.length, Nfs3.UNSTABLE, ByteBuffer.wrap(piece)))));
          }
          for (int n = 0; n < window.size(); n++) {
            RawRpc.Reply r = rpc.read();
            assertThat(Xdrs.fromBytes(r.body(), WRITE3res::decode).status()).isEqualTo(nfsstat3.NFS3_OK);
          }
        }
        assertThat(client.commit(fh).status()).isEqualTo(nfsstat3.NFS3_OK);
      } finally {
        server.stop();
        engine.close();
      }
      ClientBuilderConfiguration conf = new ClientBuilderConfiguration();
      conf.setSignatureVersion(SignVersion.V4);
      OSS sdk = OSSClientBuilder.create().endpoint(emu.endpoint())
          .credentialsProvider(new DefaultCredentialProvider(NfsGateway.AK, NfsGateway.SK)).clientConfiguration(conf)
          .region("cn-hangzhou").build();
      try (var o = sdk.getObject(NfsGateway.BUCKET, "ooo.bin")) {
        assertThat(o.getObjectContent().readAllBytes()).isEqualTo(data);
      } finally {
        sdk.shutdown();
      }
    }
    for (int p = 1; p <= 3; p++) {
      assertThat(bodies.get(p)).as("part %d", p).isInstanceOf(ContentSource.FileRange.class);
      assertThat(((ContentSource.FileRange) bodies.get(p)).crc64()).as("part %d sent with the written bytes' CRC", p)
          .isEqualTo(Crc64.of(data, (p - 1) * PART, PART));
    }
  }
}
