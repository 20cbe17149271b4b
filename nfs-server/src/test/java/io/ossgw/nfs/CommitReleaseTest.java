package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.xdr.Nfs3;
import io.ossgw.nfs.xdr.nfs_fh3;
import io.ossgw.nfs.xdr.nfsstat3;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A COMMIT that saves a file staged in memory releases its shared open handle at once (OpenFiles#commit), so a small
 * file's write buffers do not wait for the idle release (an hour here: only the COMMIT can release). A WRITE after it
 * opens the file again and changes nothing a client sees; a file staged in the spool keeps its handle.
 */
class CommitReleaseTest {
  @TempDir
  static Path state;
  static NfsGateway gw;
  static NfsClient c;
  static nfs_fh3 root;

  @BeforeAll
  static void start() {
    gw = NfsGateway.withOpenIdle(state, Duration.ofHours(1));
    c = new NfsClient(gw.port(), 1000, 1000);
    root = c.root("/" + NfsGateway.BUCKET);
  }

  @AfterAll
  static void stop() {
    c.close();
    gw.close();
  }

  static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    new java.util.Random(seed).nextBytes(b);
    return b;
  }

  static byte[] object(String key) throws IOException {
    try (InputStream in = gw.sdk.getObject(NfsGateway.BUCKET, key).getObjectContent()) {
      return in.readAllBytes();
    }
  }

  @Test
  void aCommitOfASmallNewFileReleasesItsHandleAndALaterWriteOpensItAgain() throws IOException {
    int open = gw.server.openFiles(); // the other test's file may be open
    nfs_fh3 d = c.mkdir(root, "small", 0755).obj();
    byte[] first = bytes(100 * 1024, 1);
    nfs_fh3 f = c.put(d, "f", first);
    assertThat(gw.server.openFiles()).as("released by the COMMIT, not by the idle time").isEqualTo(open);
    assertThat(object("small/f")).isEqualTo(first);

    byte[] more = bytes(30 * 1024, 2);
    assertThat(c.write(f, first.length, more, Nfs3.UNSTABLE).status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(gw.server.openFiles()).isEqualTo(open + 1);
    assertThat(c.commit(f).status()).isEqualTo(nfsstat3.NFS3_OK);
    // opened again on the saved object, the file was staged in the spool: its handle stays for the idle time
    assertThat(gw.server.openFiles()).isEqualTo(open + 1);
    byte[] both = Arrays.copyOf(first, first.length + more.length);
    System.arraycopy(more, 0, both, first.length, more.length);
    assertThat(object("small/f")).isEqualTo(both);
    assertThat(c.readAll(f, 64 * 1024)).isEqualTo(both);
  }

  /**
   * The source has no open handle (its COMMIT released it) and the target has one (its CREATE, nothing written yet):
   * the rename replaces the target, whose handle must not go on serving the new name (reliability's rename matrix,
   * case file-onto-pending, read an empty file).
   */
  @Test
  void aRenameOfAReleasedFileOntoAFileOpenedByItsCreateReadsTheRenamedBytes() throws IOException {
    nfs_fh3 d = c.mkdir(root, "onto", 0755).obj();
    byte[] src = bytes(10 * 1024, 5);
    c.put(d, "src", src);
    assertThat(c.create(d, "dst", 0644).status()).isEqualTo(nfsstat3.NFS3_OK); // open, nothing uploaded yet
    assertThat(c.rename(d, "src", d, "dst").status()).isEqualTo(nfsstat3.NFS3_OK);
    nfs_fh3 dst = c.lookup(d, "dst").object();
    assertThat(c.readAll(dst, 64 * 1024)).isEqualTo(src);
    assertThat(object("onto/dst")).isEqualTo(src);
  }

  @Test
  void aFileStagedInTheSpoolKeepsItsHandleAfterItsCommit() throws IOException {
    int open = gw.server.openFiles(); // the other test's file may be open
    byte[] old = bytes(50 * 1024, 3);
    gw.sdk.putObject(NfsGateway.BUCKET, "spooled/f", new ByteArrayInputStream(old));
    nfs_fh3 d = c.lookup(root, "spooled").object();
    nfs_fh3 f = c.lookup(d, "f").object();
    byte[] head = bytes(1024, 4);
    // a write into an existing object stages it in the spool (the object's other bytes are loaded there)
    assertThat(c.write(f, 0, head, Nfs3.UNSTABLE).status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(c.commit(f).status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(gw.server.openFiles()).isEqualTo(open + 1);
    byte[] want = old.clone();
    System.arraycopy(head, 0, want, 0, head.length);
    assertThat(object("spooled/f")).isEqualTo(want);
  }
}
