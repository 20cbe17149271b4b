package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.xdr.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NFSv3 WRITE by a file's handle while a RENAME of that file is half done (the Linux client's silly rename of an open
 * file races its own write-back this way): the WRITE waits for the rename and lands in the renamed file, where before
 * it found the old name gone and answered NFS3ERR_STALE, losing the bytes ({@link io.ossgw.nfs.fs.NameChanges}).
 * Likewise a WRITE or COMMIT that checked its file just before the whole RENAME ran: it runs again on the new name,
 * where before the WRITE answered NFS3ERR_NOENT (the client then read the file back empty) and the COMMIT answered
 * NFS3_OK without uploading anything.
 */
class RenameRaceTest {
  @TempDir
  Path state;

  @Test
  void aWriteDuringTheRenameOfItsFileWaitsAndLandsInTheRenamedFile() throws Exception {
    try (Open o = new Open(state)) {
      o.held.hold("/d/open");
      CompletableFuture<RENAME3res> rename = CompletableFuture.supplyAsync(
          () -> o.renamer.rename(o.d, "open", o.d, ".nfs1"));
      assertThat(o.held.awaitRenamed(30)).as("the engine renamed the file").isTrue();
      CompletableFuture<WRITE3res> write = CompletableFuture.supplyAsync(
          () -> o.writer.write(o.f, 10, utf8("abc"), Nfs3.UNSTABLE));
      // the WRITE waits for the rename rather than answering STALE at once
      assertThatThrownBy(() -> write.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
      o.held.release();
      assertThat(rename.get(30, TimeUnit.SECONDS).status()).isEqualTo(nfsstat3.NFS3_OK);
      assertThat(nfsstat3.name(write.get(30, TimeUnit.SECONDS).status())).isEqualTo("NFS3_OK");

      assertThat(o.writer.commit(o.f).status()).isEqualTo(nfsstat3.NFS3_OK);
      assertThat(new String(o.gw.object("d/.nfs1"), StandardCharsets.UTF_8)).isEqualTo("0123456789abc");
      assertThat(o.writer.getattr(o.f).objAttributes().size()).isEqualTo(13);
    }
  }

  @Test
  void aWriteThatCheckedItsFileBeforeTheRenameLandsInTheRenamedFile() throws Exception {
    try (Open o = new Open(state)) {
      o.held.holdGetattr("/d/open");
      CompletableFuture<WRITE3res> write = CompletableFuture.supplyAsync(
          () -> o.writer.write(o.f, 10, utf8("abc"), Nfs3.UNSTABLE));
      assertThat(o.held.awaitGetattr(30)).as("the WRITE checked its file").isTrue();
      assertThat(o.renamer.rename(o.d, "open", o.d, ".nfs1").status()).isEqualTo(nfsstat3.NFS3_OK);
      o.held.releaseGetattr();
      assertThat(nfsstat3.name(write.get(30, TimeUnit.SECONDS).status())).isEqualTo("NFS3_OK");

      assertThat(o.writer.commit(o.f).status()).isEqualTo(nfsstat3.NFS3_OK);
      assertThat(new String(o.gw.object("d/.nfs1"), StandardCharsets.UTF_8)).isEqualTo("0123456789abc");
      assertThat(o.writer.getattr(o.f).objAttributes().size()).isEqualTo(13);
    }
  }

  @Test
  void aCommitThatCheckedItsFileBeforeTheRenameUploadsTheRenamedFile() throws Exception {
    try (Open o = new Open(state)) {
      o.held.holdGetattr("/d/open");
      CompletableFuture<COMMIT3res> commit = CompletableFuture.supplyAsync(() -> o.writer.commit(o.f));
      assertThat(o.held.awaitGetattr(30)).as("the COMMIT checked its file").isTrue();
      assertThat(o.renamer.rename(o.d, "open", o.d, ".nfs1").status()).isEqualTo(nfsstat3.NFS3_OK);
      o.held.releaseGetattr();
      assertThat(commit.get(30, TimeUnit.SECONDS).status()).isEqualTo(nfsstat3.NFS3_OK);
      // a COMMIT's NFS3_OK means the bytes are in OSS, under the name the file has now
      assertThat(new String(o.gw.object("d/.nfs1"), StandardCharsets.UTF_8)).isEqualTo("0123456789");
    }
  }

  /** A gateway whose engine can hold a rename or a getattr, and "/d/open" created and written 10 bytes UNSTABLE. */
  private static final class Open implements AutoCloseable {
    final HeldRename held;
    final NfsGateway gw;
    final NfsClient renamer;
    final NfsClient writer;
    final nfs_fh3 d;
    final nfs_fh3 f;

    Open(Path state) throws Exception {
      HeldRename[] engine = new HeldRename[1];
      gw = new NfsGateway(state, null, e -> {
        engine[0] = new HeldRename(e.fileSystem());
        return List.of(Export.builder("/" + NfsGateway.BUCKET, engine[0]).build());
      });
      held = engine[0];
      renamer = new NfsClient(gw.port(), 1000, 1000);
      writer = new NfsClient(gw.port(), 1000, 1000);
      d = renamer.mkdir(renamer.root("/" + NfsGateway.BUCKET), "d", 0755).obj();
      CREATE3res made = renamer.create(d, "open", 0644);
      assertThat(made.status()).isEqualTo(nfsstat3.NFS3_OK);
      f = made.obj();
      assertThat(writer.write(f, 0, utf8("0123456789"), Nfs3.UNSTABLE).status()).isEqualTo(nfsstat3.NFS3_OK);
    }

    @Override
    public void close() throws Exception {
      try (gw; renamer; writer) {
        // closed in reverse order
      }
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
