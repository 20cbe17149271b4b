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
    HeldRename[] held = new HeldRename[1];
    try (NfsGateway gw = new NfsGateway(state, null, e -> {
      held[0] = new HeldRename(e.fileSystem());
      return List.of(Export.builder("/" + NfsGateway.BUCKET, held[0]).build());
    }); NfsClient renamer = new NfsClient(gw.port(), 1000, 1000);
        NfsClient writer = new NfsClient(gw.port(), 1000, 1000)) {
      nfs_fh3 root = renamer.root("/" + NfsGateway.BUCKET);
      nfs_fh3 d = renamer.mkdir(root, "d", 0755).obj();
      CREATE3res made = renamer.create(d, "open", 0644);
      assertThat(made.status()).isEqualTo(nfsstat3.NFS3_OK);
      nfs_fh3 f = made.obj();
      assertThat(writer.write(f, 0, utf8("0123456789"), Nfs3.UNSTABLE).status()).isEqualTo(nfsstat3.NFS3_OK);

      held[0].hold("/d/open");
      CompletableFuture<RENAME3res> rename = CompletableFuture.supplyAsync(() -> renamer.rename(d, "open", d, ".nfs1"));
      assertThat(held[0].awaitRenamed(30)).as("the engine renamed the file").isTrue();
      CompletableFuture<WRITE3res> write = CompletableFuture.supplyAsync(
          () -> writer.write(f, 10, utf8("abc"), Nfs3.UNSTABLE));
      // the WRITE waits for the rename rather than answering STALE at once
      assertThatThrownBy(() -> write.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
      held[0].release();
      assertThat(rename.get(30, TimeUnit.SECONDS).status()).isEqualTo(nfsstat3.NFS3_OK);
      assertThat(nfsstat3.name(write.get(30, TimeUnit.SECONDS).status())).isEqualTo("NFS3_OK");

      assertThat(writer.commit(f).status()).isEqualTo(nfsstat3.NFS3_OK);
      assertThat(new String(gw.object("d/.nfs1"), StandardCharsets.UTF_8)).isEqualTo("0123456789abc");
      assertThat(writer.getattr(f).objAttributes().size()).isEqualTo(13);
    }
  }

  @Test
  void aWriteThatCheckedItsFileBeforeTheRenameLandsInTheRenamedFile() throws Exception {
    HeldRename[] held = new HeldRename[1];
    try (NfsGateway gw = new NfsGateway(state, null, e -> {
      held[0] = new HeldRename(e.fileSystem());
      return List.of(Export.builder("/" + NfsGateway.BUCKET, held[0]).build());
    }); NfsClient renamer = new NfsClient(gw.port(), 1000, 1000);
        NfsClient writer = new NfsClient(gw.port(), 1000, 1000)) {
      nfs_fh3 d = renamer.mkdir(renamer.root("/" + NfsGateway.BUCKET), "d", 0755).obj();
      nfs_fh3 f = renamer.create(d, "open", 0644).obj();
      assertThat(writer.write(f, 0, utf8("0123456789"), Nfs3.UNSTABLE).status()).isEqualTo(nfsstat3.NFS3_OK);

      held[0].holdGetattr("/d/open");
      CompletableFuture<WRITE3res> write = CompletableFuture.supplyAsync(
          () -> writer.write(f, 10, utf8("abc"), Nfs3.UNSTABLE));
      assertThat(held[0].awaitGetattr(30)).as("the WRITE checked its file").isTrue();
      assertThat(renamer.rename(d, "open", d, ".nfs1").status()).isEqualTo(nfsstat3.NFS3_OK);
      held[0].releaseGetattr();
      assertThat(nfsstat3.name(write.get(30, TimeUnit.SECONDS).status())).isEqualTo("NFS3_OK");

      assertThat(writer.commit(f).status()).isEqualTo(nfsstat3.NFS3_OK);
      assertThat(new String(gw.object("d/.nfs1"), StandardCharsets.UTF_8)).isEqualTo("0123456789abc");
      assertThat(writer.getattr(f).objAttributes().size()).isEqualTo(13);
    }
  }

  @Test
  void aCommitThatCheckedItsFileBeforeTheRenameUploadsTheRenamedFile() throws Exception {
    HeldRename[] held = new HeldRename[1];
    try (NfsGateway gw = new NfsGateway(state, null, e -> {
      held[0] = new HeldRename(e.fileSystem());
      return List.of(Export.builder("/" + NfsGateway.BUCKET, held[0]).build());
    }); NfsClient renamer = new NfsClient(gw.port(), 1000, 1000);
        NfsClient writer = new NfsClient(gw.port(), 1000, 1000)) {
      nfs_fh3 d = renamer.mkdir(renamer.root("/" + NfsGateway.BUCKET), "d", 0755).obj();
      nfs_fh3 f = renamer.create(d, "open", 0644).obj();
      assertThat(writer.write(f, 0, utf8("0123456789"), Nfs3.UNSTABLE).status()).isEqualTo(nfsstat3.NFS3_OK);

      held[0].holdGetattr("/d/open");
      CompletableFuture<COMMIT3res> commit = CompletableFuture.supplyAsync(() -> writer.commit(f));
      assertThat(held[0].awaitGetattr(30)).as("the COMMIT checked its file").isTrue();
      assertThat(renamer.rename(d, "open", d, ".nfs1").status()).isEqualTo(nfsstat3.NFS3_OK);
      held[0].releaseGetattr();
      assertThat(commit.get(30, TimeUnit.SECONDS).status()).isEqualTo(nfsstat3.NFS3_OK);
      // a COMMIT's NFS3_OK means the bytes are in OSS, under the name the file has now
      assertThat(new String(gw.object("d/.nfs1"), StandardCharsets.UTF_8)).isEqualTo("0123456789");
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
