package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.xdr.*;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File handles and data across a gateway restart (NFS server and engine stopped and started again). */
class RestartTest {
  @TempDir
  Path state;

  @Test
  void handlesStayValidAndUncommittedWritesAreSavedAtStop() {
    byte[] data = new byte[1 << 20];
    new Random(11).nextBytes(data);
    try (NfsGateway gw = NfsGateway.simple(state)) {
      nfs_fh3 root;
      nfs_fh3 dir;
      nfs_fh3 file;
      nfs_fh3 unstable;
      nfs_fh3 renamed;
      nfs_fh3 gone;
      long verfBefore;
      long cookie;
      long cookieverf;
      try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
        root = c.root("/" + NfsGateway.BUCKET);
        dir = c.mkdir(root, "keep", 0755).obj();
        file = c.put(dir, "data.bin", data);
        renamed = c.put(dir, "before", NfsClient.utf8("renamed"));
        assertThat(c.rename(dir, "before", dir, "after").status()).isEqualTo(nfsstat3.NFS3_OK);
        gone = c.put(dir, "gone", NfsClient.utf8("x"));
        assertThat(c.remove(dir, "gone").status()).isEqualTo(nfsstat3.NFS3_OK);
        unstable = c.create(dir, "unstable", 0644).obj();
        WRITE3res w = c.write(unstable, 0, NfsClient.utf8("not committed"), Nfs3.UNSTABLE);
        verfBefore = w.verf();
        READDIR3res page = c.readdir(dir, 0, 0, 200);
        assertThat(page.eof()).isFalse();
        cookie = page.entries().getLast().cookie();
        cookieverf = page.cookieverf();
      }

      gw.restart();

      try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
        GETATTR3res a = c.getattr(file);
        assertThat(a.status()).as(nfsstat3.name(a.status())).isEqualTo(nfsstat3.NFS3_OK);
        assertThat(a.objAttributes().size()).isEqualTo(data.length);
        assertThat(c.readAll(file, 1 << 20)).isEqualTo(data);
        assertThat(c.getattr(root).status()).isEqualTo(nfsstat3.NFS3_OK);
        assertThat(c.lookup(dir, "data.bin").object()).as("the same handle again").isEqualTo(file);
        assertThat(c.readAll(renamed, 100)).isEqualTo(NfsClient.utf8("renamed"));
        assertThat(c.getattr(gone).status()).as("really gone").isEqualTo(nfsstat3.NFS3ERR_STALE);
        // the clean stop uploaded what was written without COMMIT
        assertThat(c.readAll(unstable, 100)).isEqualTo(NfsClient.utf8("not committed"));
        assertThat(gw.object("keep/unstable")).isEqualTo(NfsClient.utf8("not committed"));
        // a new write verifier tells clients to re-send what they did not see committed
        WRITE3res w = c.write(unstable, 0, NfsClient.utf8("N"), Nfs3.UNSTABLE);
        assertThat(w.verf()).isNotEqualTo(verfBefore);
        // a READDIR position from before the restart continues without NFS3ERR_BAD_COOKIE
        READDIR3res rest = c.readdir(dir, cookie, cookieverf, 4096);
        assertThat(rest.status()).isEqualTo(nfsstat3.NFS3_OK);
        // nothing of the old server's handles needed a MOUNT again
        assertThat(c.getattr(dir).objAttributes().type()).isEqualTo(Nfs3.NF3DIR);
      }
    }
  }

  @Test
  void aLostHandleTableMakesOldHandlesBadNeverMisdirected() throws Exception {
    try (NfsGateway gw = new NfsGateway(state, null, e -> java.util.List.of(io.ossgw.nfs.export.Export.builder(
        "/" + NfsGateway.BUCKET, e.fileSystem()).build()))) {
      nfs_fh3 f;
      try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
        f = c.put(c.root("/" + NfsGateway.BUCKET), "f", NfsClient.utf8("x"));
      }
      // wipe the handle table (a lost state directory)
      gw.server.stop();
      java.nio.file.Files.delete(state.resolve("nfs").resolve("nfs-handles.mv"));
      gw.restart();
      try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
        // a new table has a new MAC secret: the old handle is not ours any more
        assertThat(c.getattr(f).status()).isEqualTo(nfsstat3.NFS3ERR_BADHANDLE);
        assertThat(c.lookup(c.root("/" + NfsGateway.BUCKET), "f").status()).isEqualTo(nfsstat3.NFS3_OK);
      }
    }
  }
}
