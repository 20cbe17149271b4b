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
 * ran: it runs again on the new name, where before its open found the old name gone and it failed. And a CLOSE whose
 * PUTFH resolved the old name before a whole RENAME: it uploads through the open's handle, where before it looked for
 * a handle under the old name, found none and uploaded nothing.
 */
class RenameRace4Test {
  @TempDir
  Path state;

  @Test
  void aWriteDuringTheRenameOfItsOpenFileWaitsAndLandsInTheRenamedFile() throws Exception {
    try (Opened o = new Opened(state)) {
      o.held.hold("/d/open");
      CompletableFuture<COMPOUND4res> renaming = CompletableFuture.supplyAsync(
          () -> o.opener.call(putfh(o.d), savefh(), putfh(o.d), rename("open", ".nfs1")));
      assertThat(o.held.awaitRenamed(30)).as("the engine renamed the file").isTrue();
      CompletableFuture<COMPOUND4res> write = CompletableFuture.supplyAsync(
          () -> o.writer.call(putfh(o.f), Open4Ops.write(stateid4.ANONYMOUS, 10, Nfs4.UNSTABLE4, "abc")));
      // the WRITE waits for the rename rather than answering STALE at once
      assertThatThrownBy(() -> write.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
      o.held.release();
      assertThat(renaming.get(30, TimeUnit.SECONDS).status()).isEqualTo(Nfs4.NFS4_OK);
      COMPOUND4res w = write.get(30, TimeUnit.SECONDS);
      assertThat(w.status()).as(V4Wire.show(w)).isEqualTo(Nfs4.NFS4_OK);
      o.closeAndExpect("0123456789abc");
    }
  }

  @Test
  void aWriteThatCheckedItsFileBeforeTheRenameLandsInTheRenamedFile() throws Exception {
    try (Opened o = new Opened(state)) {
      o.held.holdGetattr("/d/open");
      CompletableFuture<COMPOUND4res> write = CompletableFuture.supplyAsync(
          () -> o.writer.call(putfh(o.f), Open4Ops.write(stateid4.ANONYMOUS, 10, Nfs4.UNSTABLE4, "abc")));
      assertThat(o.held.awaitGetattr(30)).as("the WRITE checked its file").isTrue();
      ok(o.opener, putfh(o.d), savefh(), putfh(o.d), rename("open", ".nfs1"));
      o.held.releaseGetattr();
      COMPOUND4res w = write.get(30, TimeUnit.SECONDS);
      assertThat(w.status()).as(V4Wire.show(w)).isEqualTo(Nfs4.NFS4_OK);
      o.closeAndExpect("0123456789abc");
    }
  }

  @Test
  void aCloseWhoseFilehandleResolvedBeforeTheRenameUploadsTheRenamedFile() throws Exception {
    try (Opened o = new Opened(state)) {
      o.held.holdGetattr("/d/open");
      // PUTFH resolves the old name, GETATTR is held after answering: the RENAME then runs whole before the CLOSE
      CompletableFuture<COMPOUND4res> closing = CompletableFuture.supplyAsync(
          () -> o.opener.call(putfh(o.f), V4Client.getattr(Nfs4.FATTR4_SIZE), Open4Ops.close(o.open)));
      assertThat(o.held.awaitGetattr(30)).as("the CLOSE's compound resolved its file").isTrue();
      ok(o.writer, putfh(o.d), savefh(), putfh(o.d), rename("open", ".nfs1")); // the opener's slot is busy
      // bytes the rename did not carry: only an upload after it has them
      ok(o.writer, putfh(o.f), Open4Ops.write(stateid4.ANONYMOUS, 10, Nfs4.UNSTABLE4, "abc"));
      o.held.releaseGetattr();
      COMPOUND4res c = closing.get(30, TimeUnit.SECONDS);
      assertThat(c.status()).as(V4Wire.show(c)).isEqualTo(Nfs4.NFS4_OK);
      assertThat(o.stored("d/.nfs1")).as("in OSS when the CLOSE answered").isEqualTo("0123456789abc");
    }
  }

  /** A gateway whose engine can hold a rename or a getattr, and "/d/open" opened, created and written 10 bytes. */
  private static final class Opened implements AutoCloseable {
    final HeldRename held;
    final V4Gateway gw;
    final V4Client opener;
    final V4Client writer;
    final byte[] d;
    final byte[] f;
    final stateid4 open;

    Opened(Path state) throws Exception {
      HeldRename[] engine = new HeldRename[1];
      gw = new V4Gateway(state, e -> {
        engine[0] = new HeldRename(e.fileSystem());
        return List.of(Export.builder("/" + V4Gateway.BUCKET, engine[0]).build());
      });
      held = engine[0];
      opener = new V4Client(gw.port(), 1000, 1000);
      writer = new V4Client(gw.port(), 1000, 1000);
      d = ((GETFH4resok) ok(opener, putfh(DirOps.fh(opener, "/" + V4Gateway.BUCKET)), DirOps.mkdir("d"),
          getfh())).object().data();
      COMPOUND4res r = opener.call(putfh(d), Open4Ops.create("o", "open", Nfs4.UNCHECKED4, Open4Ops.BOTH, 0),
          getfh());
      assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(Nfs4.NFS4_OK);
      open = Open4Ops.opened(r, 1).stateid();
      f = V4Client.<GETFH4resok>body(r, 2).object().data();
      ok(opener, putfh(f), Open4Ops.write(open, 0, Nfs4.UNSTABLE4, "0123456789"));
    }

    /** CLOSEs the open file, which uploads it, and expects {@code content} under its new name. */
    void closeAndExpect(String content) throws Exception {
      ok(opener, putfh(f), Open4Ops.close(open));
      assertThat(stored("d/.nfs1")).isEqualTo(content);
    }

    /** The object's bytes in OSS, or "(none)". */
    String stored(String key) throws Exception {
      if (!gw.sdk.doesObjectExist(V4Gateway.BUCKET, key)) {
        return "(none)";
      }
      return new String(gw.sdk.getObject(V4Gateway.BUCKET, key).getObjectContent().readAllBytes());
    }

    @Override
    public void close() throws Exception {
      try (gw; opener; writer) {
        // closed in reverse order
      }
    }
  }
}
