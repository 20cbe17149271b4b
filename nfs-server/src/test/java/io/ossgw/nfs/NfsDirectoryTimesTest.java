package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.nfs.xdr.*;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A directory's mtime/ctime over NFS move with its entries, in the wcc_data of the changing procedure and in later
 * GETATTRs, from the engine's record that FUSE shows too (SEMANTICS.md "Directory times"); an explicit SETATTR of the
 * directory's mtime is kept until the next change.
 */
class NfsDirectoryTimesTest extends OneExportFixture {
  private static nfs_fh3 dir(String name) {
    MKDIR3res r = nfs.mkdir(root, name, 0755);
    assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
    return r.obj();
  }

  private static void assertAdvanced(wcc_data w) {
    assertThat(w.before()).isNotNull();
    assertThat(w.after().mtime().toInstant()).isAfter(w.before().mtime().toInstant());
    assertThat(w.after().ctime().toInstant()).isAfter(w.before().ctime().toInstant());
  }

  @Test
  void createMkdirRemoveAndRenameAdvanceThePostOpTimesOfTheirDirectories() {
    nfs_fh3 d = dir("dt");
    CREATE3res c = nfs.create(d, "f", 0644);
    assertThat(c.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertAdvanced(c.dirWcc());
    assertThat(nfs.getattr(d).objAttributes().mtime()).isEqualTo(c.dirWcc().after().mtime());
    assertAdvanced(nfs.mkdir(d, "sub", 0755).dirWcc());
    nfs_fh3 e = dir("dt2");
    RENAME3res r = nfs.rename(d, "f", e, "f");
    assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertAdvanced(r.fromdirWcc());
    assertAdvanced(r.todirWcc());
    assertAdvanced(nfs.remove(e, "f").dirWcc());
    assertAdvanced(nfs.rmdir(d, "sub").dirWcc());
  }

  @Test
  void explicitMtimeOfADirectoryIsKeptUntilTheNextChange() {
    nfs_fh3 d = dir("dts");
    nfs.put(d, "f", NfsClient.utf8("x"));
    Instant t = Instant.parse("2001-02-03T04:05:06.123456789Z");
    SETATTR3res s = nfs.setattr(d, new sattr3(null, null, null, null, Nfs3.DONT_CHANGE, null,
        Nfs3.SET_TO_CLIENT_TIME, nfstime3.of(t)));
    assertThat(s.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(s.objWcc().after().mtime().toInstant()).isEqualTo(t);
    assertThat(nfs.getattr(d).objAttributes().mtime().toInstant()).isEqualTo(t);
    REMOVE3res r = nfs.remove(d, "f");
    assertThat(r.dirWcc().after().mtime().toInstant()).isAfter(t);
  }

  @Test
  void aChangeThroughAnotherFrontEndShowsOverNfs() {
    nfs_fh3 d = dir("dtf");
    fattr3 before = nfs.getattr(d).objAttributes();
    // the engine's file system as FUSE drives it
    FileHandle h = gw.engine.fileSystem("fuse").create("/dtf/g", 0644, OpenFlags.READ_WRITE, true,
        new Caller(1000, 1000, new int[0]));
    gw.engine.fileSystem("fuse").release(h);
    assertThat(nfs.getattr(d).objAttributes().mtime().toInstant()).isAfter(before.mtime().toInstant());
  }
}
