package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.nfs.xdr.*;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The permission checks an NFS server owes its clients because their kernels leave them to it (issue 21: pjdfstest
 * through the Linux NFSv4.1 client), over NFSv3 and NLM with AUTH_SYS as pjdfstest's uids (65534 and 65533): a
 * non-owner's chown that changes nothing, renaming a directory one may not write into another parent, the sticky bit
 * on a rename's target, locks on a file one may neither read nor write, and CREATE UNCHECKED of an existing file. The
 * tree is made through the engine as the owners the cases need; every case has its own directory.
 */
class PermissionChecksTest {
  static final int NOBODY = 65534;
  static final int OTHER = 65533;

  @TempDir
  static Path state;
  static NfsGateway gw;
  static VirtualFileSystem fs;
  static OwnedTree tree;
  static NfsClient c;
  static nfs_fh3 root;

  @BeforeAll
  static void start() {
    gw = NfsGateway.simple(state);
    fs = gw.engine.fileSystem();
    tree = new OwnedTree(fs);
    c = new NfsClient(gw.port(), NOBODY, NOBODY);
    root = c.root("/" + NfsGateway.BUCKET);
  }

  @AfterAll
  static void stop() {
    c.close();
    gw.close();
  }

  static sattr3 owner(Integer uid, Integer gid) {
    return new sattr3(null, uid, gid, null, Nfs3.DONT_CHANGE, null, Nfs3.DONT_CHANGE, null);
  }

  static int setattr(String path, sattr3 s) {
    return c.setattr(c.walk(root, path), s).status();
  }

  /** chown/07.t: a chown by a non-owner is EPERM even to the ids the file already has (Linux chown_ok). */
  @Test
  void chownByANonOwnerIsRefusedEvenWhenItChangesNothing() {
    tree.dir("/chown", 0755, NOBODY);
    tree.file("/chown/f", 0644, NOBODY);
    try {
      c.as(OTHER, OTHER);
      assertThat(setattr("chown/f", owner(NOBODY, NOBODY))).isEqualTo(nfsstat3.NFS3ERR_PERM);
      assertThat(setattr("chown/f", owner(NOBODY, null))).isEqualTo(nfsstat3.NFS3ERR_PERM);
      assertThat(setattr("chown/f", owner(null, NOBODY))).isEqualTo(nfsstat3.NFS3ERR_PERM);
      assertThat(setattr("chown/f", owner(OTHER, OTHER))).isEqualTo(nfsstat3.NFS3ERR_PERM);
    } finally {
      c.as(NOBODY, NOBODY);
    }
    // the owner may "chown" to itself and keep its group, without being a member of it
    tree.file("/chown/g", 0644, NOBODY);
    fs.setattr("/chown/g", SetAttr.owner(null, 4242), null, Caller.ROOT);
    assertThat(setattr("chown/g", owner(NOBODY, 4242))).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(setattr("chown/g", owner(OTHER, null))).isEqualTo(nfsstat3.NFS3ERR_PERM);
    assertThat(fs.getattr("/chown/g").uid()).isEqualTo(NOBODY);
  }

  /**
   * rename/09.t: moving a directory to another parent rewrites its "..", which needs write permission on it (Linux
   * vfs_rename), even where the sticky bit lets the caller move it; within its parent it needs none.
   */
  @Test
  void movingADirectoryToAnotherParentNeedsWritePermissionOnIt() {
    tree.dir("/mv", 0755, NOBODY);
    tree.dir("/mv/src", 01777, NOBODY); // sticky, the caller's
    tree.dir("/mv/dst", 0755, NOBODY);
    nfs_fh3 src = c.walk(root, "mv/src");
    nfs_fh3 dst = c.walk(root, "mv/dst");
    for (int owner : new int[] {0, OTHER}) {
      tree.dir("/mv/src/d" + owner, 0755, owner);
      assertThat(c.rename(src, "d" + owner, dst, "d" + owner).status()).as("owner %d", owner)
          .isEqualTo(nfsstat3.NFS3ERR_ACCES);
      assertThat(c.rename(src, "d" + owner, src, "e" + owner).status()).isEqualTo(nfsstat3.NFS3_OK);
    }
    tree.file("/mv/src/f", 0644, OTHER); // a file has no ".." to rewrite
    assertThat(c.rename(src, "f", dst, "f").status()).isEqualTo(nfsstat3.NFS3_OK);
    tree.dir("/mv/src/w", 0777, OTHER); // writable: may move
    assertThat(c.rename(src, "w", dst, "w").status()).isEqualTo(nfsstat3.NFS3_OK);
  }

  /** rename/10.t: replacing an entry of a sticky directory is removing it (Linux may_delete): EPERM, as unlink. */
  @Test
  void theStickyBitGuardsARenamesTargetAndAnswersPerm() {
    tree.dir("/sticky", 01777, 0);
    tree.file("/sticky/theirs", 0644, OTHER);
    tree.file("/sticky/mine", 0644, NOBODY);
    tree.file("/sticky/other", 0644, OTHER);
    nfs_fh3 d = c.walk(root, "sticky");
    assertThat(c.rename(d, "mine", d, "theirs").status()).isEqualTo(nfsstat3.NFS3ERR_PERM);
    assertThat(c.remove(d, "theirs").status()).isEqualTo(nfsstat3.NFS3ERR_PERM);
    assertThat(c.rename(d, "other", d, "x").status()).isEqualTo(nfsstat3.NFS3ERR_PERM);
    assertThat(fs.getattr("/sticky/theirs").uid()).isEqualTo(OTHER);
    assertThat(c.rename(d, "mine", d, "mine2").status()).isEqualTo(nfsstat3.NFS3_OK);
  }

  /**
   * ACCESS answers by the owner class for the owner even when group and other would allow more (open/06.t, which the
   * Linux v3 client asks with ACCESS before an open): no owner override there, unlike READ and WRITE.
   */
  @Test
  void accessUsesTheOwnerClassForTheOwner() {
    tree.dir("/acc", 0755, NOBODY);
    tree.file("/acc/f", 0477, NOBODY);
    nfs_fh3 f = c.walk(root, "acc/f");
    int asked = Nfs3.ACCESS3_READ | Nfs3.ACCESS3_MODIFY | Nfs3.ACCESS3_EXTEND;
    assertThat(c.access(f, asked).access()).isEqualTo(Nfs3.ACCESS3_READ);
    tree.chmod("/acc/f", 0277);
    assertThat(c.access(f, asked).access()).isEqualTo(Nfs3.ACCESS3_MODIFY | Nfs3.ACCESS3_EXTEND);
  }

  /**
   * CREATE UNCHECKED of a name that exists opens it: only a size (O_TRUNC) applies, checked as a truncate, as
   * knfsd does; the mode the client sends is the one a new file would have got, not a chmod.
   */
  @Test
  void createUncheckedOfAnExistingFileAppliesOnlyTheSize() {
    tree.dir("/unchecked", 0777, 0);
    tree.file("/unchecked/f", 0666, OTHER);
    sattr3 s = new sattr3(0600, null, null, 0L, Nfs3.DONT_CHANGE, null, Nfs3.DONT_CHANGE, null);
    CREATE3res r = c.create(c.walk(root, "unchecked"), "f", new createhow3(Nfs3.UNCHECKED, s, null));
    assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(fs.getattr("/unchecked/f").mode() & 07777).isEqualTo(0666);
    tree.file("/unchecked/ro", 0644, OTHER);
    r = c.create(c.walk(root, "unchecked"), "ro", new createhow3(Nfs3.UNCHECKED, s, null));
    assertThat(r.status()).isEqualTo(nfsstat3.NFS3ERR_ACCES);
  }

  /**
   * NLM TEST and LOCK need read or write permission on the file, or its ownership (knfsd: read or ownership); UNLOCK
   * and CANCEL none, so a lock can always be released.
   */
  @Test
  void locksNeedReadOrWritePermissionOrOwnership() {
    tree.dir("/locks", 0755, 0);
    tree.file("/locks/closed", 0600, OTHER);
    tree.file("/locks/open", 0604, OTHER);
    tree.file("/locks/writeonly", 0602, OTHER);
    tree.file("/locks/mine", 0000, NOBODY);
    NlmTest.Who me = new NlmTest.Who("client", 7);
    nfs_fh3 closed = c.walk(root, "locks/closed");
    assertThat(NlmTest.lock(c, me, closed, false, true, 0, 0, 1)).isEqualTo(NlmTest.NLM4_FAILED);
    assertThat(NlmTest.lock(c, me, closed, false, false, 0, 0, 1)).isEqualTo(NlmTest.NLM4_FAILED);
    assertThat(NlmTest.test(c, me, closed, true, 0, 0).stat()).isEqualTo(NlmTest.NLM4_FAILED);
    assertThat(NlmTest.unlock(c, me, closed, 0, 0)).isEqualTo(NlmTest.NLM4_GRANTED);
    for (String name : new String[] {"open", "writeonly", "mine"}) {
      nfs_fh3 f = c.walk(root, "locks/" + name);
      assertThat(NlmTest.lock(c, me, f, false, true, 0, 0, 1)).as(name).isEqualTo(NlmTest.NLM4_GRANTED);
      fs.setattr("/locks/" + name, SetAttr.mode(0), null, Caller.ROOT);
      assertThat(NlmTest.unlock(c, me, f, 0, 0)).as(name).isEqualTo(NlmTest.NLM4_GRANTED);
    }
  }
}
