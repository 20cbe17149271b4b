package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.DirOps.ok;
import static io.ossgw.nfs.v4.DirOps.rename;
import static io.ossgw.nfs.v4.V4Client.getfh;
import static io.ossgw.nfs.v4.V4Client.putfh;
import static io.ossgw.nfs.v4.V4Client.savefh;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.nfs.HeldRename;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.v4.xdr.*;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NFSv4.1 WRITE by an open file's filehandle while a RENAME of that file is half done, as the Linux client's silly
 * rename at unlink(2) of an open file races its write-back: the WRITE waits for the rename and lands in the renamed
 * file, which the CLOSE then uploads ({@link io.ossgw.nfs.fs.NameChanges}; before, the WRITE answered NFS4ERR_STALE
 * and the client failed close(2) with ESTALE). Likewise a WRITE that checked its file just before the whole RENAME
 * ran: it runs again on the new name, where before its open found the old name gone and it failed.
 */
class RenameRace4Test {
  @TempDir
  Path state;

  @Test
  void aWriteDuringTheRenameOfItsOpenFileWaitsAndLandsInTheRenamedFile() throws Exception {
    HeldRename[] held = new HeldRename[1];
    try (V4Gateway gw = new V4Gateway(state, e -> {
      held[0] = new HeldRename(e.fileSystem());
      return List.of(Export.builder("/" + V4Gateway.BUCKET, held[0]).build());
    }); V4Client opener = new V4Client(gw.port(), 1000, 1000); V4Client writer = new V4Client(gw.port(), 1000, 1000)) {
      byte[] d = ((GETFH4resok) ok(opener, putfh(DirOps.fh(opener, "/" + V4Gateway.BUCKET)), DirOps.mkdir("d"),
          getfh())).object().data();
      COMPOUND4res r = opener.call(putfh(d), Open4Ops.create("o", "open", Nfs4.UNCHECKED4, Open4Ops.BOTH, 0),
          getfh());
      assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(Nfs4.NFS4_OK);
      stateid4 s = Open4Ops.opened(r, 1).stateid();
      byte[] f = V4Client.<GETFH4resok>body(r, 2).object().data();
      ok(opener, putfh(f), Open4Ops.write(s, 0, Nfs4.UNSTABLE4, "0123456789"));

      held[0].hold("/d/open");
      CompletableFuture<COMPOUND4res> renaming = CompletableFuture.supplyAsync(
          () -> opener.call(putfh(d), savefh(), putfh(d), rename("open", ".nfs1")));
      assertThat(held[0].awaitRenamed(30)).as("the engine renamed the file").isTrue();
      CompletableFuture<COMPOUND4res> write = CompletableFuture.supplyAsync(
          () -> writer.call(putfh(f), Open4Ops.write(stateid4.ANONYMOUS, 10, Nfs4.UNSTABLE4, "abc")));
      // the WRITE waits for the rename rather than answering STALE at once
      assertThatThrownBy(() -> write.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
      held[0].release();
      assertThat(renaming.get(30, TimeUnit.SECONDS).status()).isEqualTo(Nfs4.NFS4_OK);
      COMPOUND4res w = write.get(30, TimeUnit.SECONDS);
      assertThat(w.status()).as(V4Wire.show(w)).isEqualTo(Nfs4.NFS4_OK);

      ok(opener, putfh(f), Open4Ops.close(s));
      assertThat(new String(gw.sdk.getObject(V4Gateway.BUCKET, "d/.nfs1").getObjectContent().readAllBytes()))
          .isEqualTo("0123456789abc");
    }
  }

  @Test
  void aWriteThatCheckedItsFileBeforeTheRenameLandsInTheRenamedFile() throws Exception {
    HeldRename[] held = new HeldRename[1];
    try (V4Gateway gw = new V4Gateway(state, e -> {
      held[0] = new HeldRename(e.fileSystem());
      return List.of(Export.builder("/" + V4Gateway.BUCKET, held[0]).build());
    }); V4Client opener = new V4Client(gw.port(), 1000, 1000); V4Client writer = new V4Client(gw.port(), 1000, 1000)) {
      byte[] d = ((GETFH4resok) ok(opener, putfh(DirOps.fh(opener, "/" + V4Gateway.BUCKET)), DirOps.mkdir("d"),
          getfh())).object().data();
      COMPOUND4res r = opener.call(putfh(d), Open4Ops.create("o", "open", Nfs4.UNCHECKED4, Open4Ops.BOTH, 0),
          getfh());
      assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(Nfs4.NFS4_OK);
      stateid4 s = Open4Ops.opened(r, 1).stateid();
      byte[] f = V4Client.<GETFH4resok>body(r, 2).object().data();
      ok(opener, putfh(f), Open4Ops.write(s, 0, Nfs4.UNSTABLE4, "0123456789"));

      held[0].holdGetattr("/d/open");
      CompletableFuture<COMPOUND4res> write = CompletableFuture.supplyAsync(
          () -> writer.call(putfh(f), Open4Ops.write(stateid4.ANONYMOUS, 10, Nfs4.UNSTABLE4, "abc")));
      assertThat(held[0].awaitGetattr(30)).as("the WRITE checked its file").isTrue();
      ok(opener, putfh(d), savefh(), putfh(d), rename("open", ".nfs1"));
      held[0].releaseGetattr();
      COMPOUND4res w = write.get(30, TimeUnit.SECONDS);
      assertThat(w.status()).as(V4Wire.show(w)).isEqualTo(Nfs4.NFS4_OK);

      ok(opener, putfh(f), Open4Ops.close(s));
      assertThat(new String(gw.sdk.getObject(V4Gateway.BUCKET, "d/.nfs1").getObjectContent().readAllBytes()))
          .isEqualTo("0123456789abc");
    }
  }
}
