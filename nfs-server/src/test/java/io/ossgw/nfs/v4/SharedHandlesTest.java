package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.DirOps.rename;
import static io.ossgw.nfs.v4.V4Client.*;
import static io.ossgw.nfs.v4.xdr.Nfs4.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.cluster.MemoryInodeNumberStore;
import io.ossgw.nfs.NfsServer;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.v4.xdr.COMPOUND4res;
import io.ossgw.nfs.v4.xdr.GETFH4resok;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two NFS servers on one shared handle table (issue 23 item 1, {@code NfsServerBuilder#sharedHandles}; in a cluster
 * the table is in Valkey, here the in-memory reference form): a handle one server gave is accepted by the other with
 * the same attributes, a rename through one keeps it valid on the other, and a table that cannot answer gives
 * NFS4ERR_DELAY (retry), never a handle or NFS4ERR_SERVERFAULT.
 */
class SharedHandlesTest {
  @TempDir
  Path state;

  @Test
  void aHandleOfOneServerIsValidOnTheOtherAndAStoreFailureIsDelay() {
    MemoryInodeNumberStore store = new MemoryInodeNumberStore();
    try (V4Gateway gw = V4Gateway.simple(state)) {
      gw.put("d/f.txt", "12345");
      NfsServer a = server(gw, store);
      NfsServer b = server(gw, store);
      try (V4Client ca = new V4Client(a.port(), 1000, 1000); V4Client cb = new V4Client(b.port(), 1000, 1000)) {
        COMPOUND4res r = ca.call(putrootfh(), lookup(V4Gateway.BUCKET), lookup("d"), lookup("f.txt"), getfh());
        assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(NFS4_OK);
        byte[] fh = ((GETFH4resok) body(r, 4)).object().data();
        COMPOUND4res onB = cb.call(putfh(fh), getattr(FATTR4_SIZE, FATTR4_FILEID));
        assertThat(onB.status()).as(V4Wire.show(onB)).isEqualTo(NFS4_OK);
        COMPOUND4res onA = ca.call(putfh(fh), getattr(FATTR4_SIZE, FATTR4_FILEID));
        assertThat(Attr4Values.of(onB, 1)).isEqualTo(Attr4Values.of(onA, 1));
        assertThat(Attr4Values.of(onB, 1).get(FATTR4_SIZE)).isEqualTo(5L);
        COMPOUND4res again = cb.call(putrootfh(), lookup(V4Gateway.BUCKET), lookup("d"), lookup("f.txt"), getfh());
        assertThat(((GETFH4resok) body(again, 4)).object().data()).as("B's own LOOKUP").isEqualTo(fh);

        // the directory renamed through A: the file's handle follows it on B
        COMPOUND4res mv = ca.call(putrootfh(), lookup(V4Gateway.BUCKET), savefh(), rename("d", "e"));
        assertThat(mv.status()).as(V4Wire.show(mv)).isEqualTo(NFS4_OK);
        COMPOUND4res moved = cb.call(putfh(fh), getattr(FATTR4_SIZE));
        assertThat(moved.status()).as(V4Wire.show(moved)).isEqualTo(NFS4_OK);
        assertThat(Attr4Values.of(moved, 1).get(FATTR4_SIZE)).isEqualTo(5L);

        store.down(true);
        assertThat(V4Wire.statuses(cb.call(putfh(fh), getattr(FATTR4_SIZE)))).containsExactly(NFS4ERR_DELAY);
        assertThat(V4Wire.statuses(ca.call(putrootfh(), lookup(V4Gateway.BUCKET), lookup("e"))))
            .containsExactly(NFS4_OK, NFS4_OK, NFS4ERR_DELAY);
        store.down(false);
        assertThat(cb.call(putfh(fh), getattr(FATTR4_SIZE)).status()).isEqualTo(NFS4_OK);
      } finally {
        a.stop();
        b.stop();
      }
    }
  }

  private static NfsServer server(V4Gateway gw, MemoryInodeNumberStore store) {
    return NfsServer.builder().bind("127.0.0.1").port(0).nfsV41(true).sharedHandles(store)
        .export(Export.builder("/" + V4Gateway.BUCKET, gw.engine.fileSystem()).build()).build().start();
  }
}
