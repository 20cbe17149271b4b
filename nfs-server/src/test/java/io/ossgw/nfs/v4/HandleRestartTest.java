package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Client.*;
import static io.ossgw.nfs.v4.xdr.Nfs4.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.v4.xdr.COMPOUND4res;
import io.ossgw.nfs.v4.xdr.GETFH4resok;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Filehandles are persistent (FH4_PERSISTENT): PUTFH of a handle from before a gateway restart (same state directory)
 * finds the same object, pseudo handles included; and the checks v3 makes on every handle apply after the export's
 * rules change: a client outside its networks NFS4ERR_ACCESS, a secure export from an unprivileged port NFS4ERR_PERM,
 * an export or object gone NFS4ERR_STALE.
 */
class HandleRestartTest {
  @TempDir
  Path state;

  @Test
  void handlesSurviveARestartAndV3ChecksApply() {
    String path = "/" + V4Gateway.BUCKET;
    try (V4Gateway gw = V4Gateway.simple(state)) {
      gw.put("k/f.txt", "12345");
      gw.put("gone.txt", "x");
      byte[] file;
      byte[] gone;
      byte[] pseudoRoot;
      try (V4Client c = new V4Client(gw.port(), 1000, 1000)) {
        COMPOUND4res r = c.call(putrootfh(), getfh(), lookup(V4Gateway.BUCKET), savefh(), lookup("k"),
            lookup("f.txt"), getfh(), restorefh(), lookup("gone.txt"), getfh());
        assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(NFS4_OK);
        pseudoRoot = ((GETFH4resok) body(r, 1)).object().data();
        file = ((GETFH4resok) body(r, 6)).object().data();
        gone = ((GETFH4resok) body(r, 9)).object().data();
      }
      gw.engine.fileSystem().unlink("/gone.txt");
      gw.restart(e -> List.of(Export.builder(path, e.fileSystem()).build()));
      try (V4Client c = new V4Client(gw.port(), 1000, 1000)) {
        COMPOUND4res r = c.call(putfh(file), getattr(FATTR4_SIZE), putfh(pseudoRoot), lookup(V4Gateway.BUCKET),
            lookup("k"), lookup("f.txt"), getfh());
        assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(NFS4_OK);
        assertThat(Attr4Values.of(r, 1).get(FATTR4_SIZE)).isEqualTo(5L);
        assertThat(((GETFH4resok) body(r, 6)).object().data()).isEqualTo(file);
        // removed behind the server's back: the handle resolves (as in v3), the object's attributes are STALE
        assertThat(V4Wire.statuses(c.call(putfh(gone), getattr(FATTR4_SIZE))))
            .containsExactly(NFS4_OK, NFS4ERR_STALE);
      }

      // (another export lets the client connect at all: the server drops connections no export allows)
      gw.restart(e -> List.of(Export.builder(path, e.fileSystem()).clients(List.of("10.0.0.0/8")).build(),
          Export.builder("/other", e.fileSystem()).build()));
      try (V4Client c = new V4Client(gw.port(), 1000, 1000)) {
        assertThat(c.call(putfh(file)).status()).isEqualTo(NFS4ERR_ACCESS);
        // the export is hidden from this client's listing, and refused when named
        assertThat(c.call(putrootfh(), lookup(V4Gateway.BUCKET)).status()).isEqualTo(NFS4ERR_ACCESS);
      }

      gw.restart(e -> List.of(Export.builder(path, e.fileSystem()).secure(true).build()));
      try (V4Client c = new V4Client(gw.port(), 1000, 1000)) {
        assertThat(c.call(putfh(file)).status()).isEqualTo(NFS4ERR_PERM);
      }

      gw.restart(e -> List.of(Export.builder("/other", e.fileSystem()).build()));
      try (V4Client c = new V4Client(gw.port(), 1000, 1000)) {
        assertThat(c.call(putfh(file)).status()).isEqualTo(NFS4ERR_STALE);
      }
    }
  }
}
