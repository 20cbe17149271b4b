package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.xdr.*;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export's {@code durableCreate} (RFC 1813 §3.3.8: CREATE on stable storage before the reply), through NFSv3 over
 * TCP against the engine and the OSS emulator: the created object is in OSS at once, so a gateway that dies between
 * a client's CREATE and its first COMMIT (simulated: every upload refused while the gateway restarts, so what it had
 * staged never lands) leaves the client's handle valid, and the WRITE the client sends again (the write verifier
 * changed) and its COMMIT put the bytes in place. Without it the object never existed and the handle is STALE.
 */
class DurableCreateTest {
  @TempDir
  Path state;

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aFileCreatedBeforeTheGatewayDiedKeepsItsHandleOnlyWhenCreatesAreDurable(boolean durable) {
    try (NfsGateway gw = new NfsGateway(state, null,
        e -> List.of(Export.builder("/" + NfsGateway.BUCKET, e.fileSystem()).durableCreate(durable).build()))) {
      nfs_fh3 f;
      WRITE3res w;
      try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
        CREATE3res made = c.create(c.root("/" + NfsGateway.BUCKET), "f", 0640);
        assertThat(made.status()).isEqualTo(nfsstat3.NFS3_OK);
        f = made.obj();
        assertThat(gw.sdk.doesObjectExist(NfsGateway.BUCKET, "f")).as("the object right after CREATE")
            .isEqualTo(durable);
        if (durable) {
          assertThat(gw.sdk.getObjectMetadata(NfsGateway.BUCKET, "f").getContentLength()).isZero();
          assertThat(gw.sdk.getObjectMetadata(NfsGateway.BUCKET, "f").getUserMetadata()).containsEntry("mode",
              Integer.toString(0100640));
        }
        // the gateway dies with the client's bytes staged: no upload of them ever lands
        gw.emu.faults().failWith(503, "ServiceUnavailable", 1.0,
            Set.of("PutObject", "InitiateMultipartUpload", "UploadPart", "CompleteMultipartUpload"));
        w = c.write(f, 0, NfsClient.utf8("precious"), Nfs3.UNSTABLE);
        assertThat(w.status()).isEqualTo(nfsstat3.NFS3_OK);
        gw.restart();
        gw.emu.faults().clear();
      }
      try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) { // the client reconnects and sends the WRITE again
        WRITE3res again = c.write(f, 0, NfsClient.utf8("precious"), Nfs3.UNSTABLE);
        if (!durable) {
          assertThat(nfsstat3.name(again.status())).isEqualTo("NFS3ERR_STALE");
          assertThat(gw.sdk.doesObjectExist(NfsGateway.BUCKET, "f")).isFalse();
          return;
        }
        assertThat(nfsstat3.name(again.status())).isEqualTo("NFS3_OK");
        assertThat(again.verf()).as("a new server: the client knows to send what it had not seen committed")
            .isNotEqualTo(w.verf());
        COMMIT3res done = c.commit(f);
        assertThat(done.status()).isEqualTo(nfsstat3.NFS3_OK);
        assertThat(done.verf()).isEqualTo(again.verf());
        assertThat(gw.object("f")).isEqualTo(NfsClient.utf8("precious"));
      }
    }
  }
}
