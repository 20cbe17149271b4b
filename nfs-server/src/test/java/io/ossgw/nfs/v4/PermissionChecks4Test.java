package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Client.*;
import static io.ossgw.nfs.v4.xdr.Nfs4.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.nfs.OwnedTree;
import io.ossgw.nfs.v4.xdr.COMPOUND4res;
import io.ossgw.nfs.v4.xdr.OPEN4args;
import io.ossgw.nfs.v4.xdr.bitmap4;
import io.ossgw.nfs.v4.xdr.fattr4;
import io.ossgw.nfs.v4.xdr.nfs_argop4;
import io.ossgw.nfs.v4.xdr.open_claim4;
import io.ossgw.nfs.v4.xdr.stateid4;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The permission checks the Linux NFSv4.1 client leaves to the server (issue 21: pjdfstest's chown/07.t, open/06.t,
 * rename/09.t and rename/10.t), over TCP with AUTH_SYS as pjdfstest's uids (65534 and 65533): a non-owner's chown
 * that changes nothing, OPEN of an existing file by its owner against the owner class bits, renaming a directory one
 * may not write into another parent, and the sticky bit (EPERM) on REMOVE and on a RENAME's source and target. The
 * tree is made through the engine as the owners the cases need.
 */
class PermissionChecks4Test {
  static final int NOBODY = 65534;
  static final int OTHER = 65533;

  @TempDir
  static Path state;
  static V4Gateway gw;
  static VirtualFileSystem fs;
  static OwnedTree tree;
  static V4Client c;

  @BeforeAll
  static void start() {
    gw = V4Gateway.simple(state);
    fs = gw.engine.fileSystem();
    tree = new OwnedTree(fs);
    c = new V4Client(gw.port(), NOBODY, NOBODY);
  }

  @AfterAll
  static void stop() {
    c.close();
    gw.close();
  }

  /** PUTROOTFH, LOOKUP of the export and of each component of {@code path}, then {@code ops}; the last status. */
  static int at(String path, nfs_argop4... ops) {
    List<nfs_argop4> all = new ArrayList<>(List.of(putrootfh(), lookup(V4Gateway.BUCKET)));
    for (String n : path.split("/")) {
      if (!n.isEmpty()) {
        all.add(lookup(n));
      }
    }
    all.addAll(List.of(ops));
    COMPOUND4res r = c.call(all.toArray(nfs_argop4[]::new));
    assertThat(r.resarray()).as(V4Wire.show(r)).hasSize(all.size());
    return r.status();
  }

  static nfs_argop4 open(String name, int access) {
    return Open4Ops.open("perm", name, access, 0);
  }

  static nfs_argop4 openCreate(String name, int access, int mode) {
    return V4Wire.op(OP_OPEN, new OPEN4args(0, access, 0, Open4Ops.owner("perm"), OPEN4_CREATE, UNCHECKED4,
        Open4Ops.mode(mode), null, open_claim4.nullClaim(name)));
  }

  static fattr4 owners(String uid, String gid) {
    return fattr(bitmap4.of(FATTR4_OWNER, FATTR4_OWNER_GROUP), w -> w.string(uid).string(gid));
  }

  /** chown/07.t: a chown by a non-owner is EPERM even to the ids the file already has (Linux chown_ok). */
  @Test
  void chownByANonOwnerIsRefusedEvenWhenItChangesNothing() {
    tree.dir("/chown", 0755, NOBODY);
    tree.file("/chown/f", 0644, NOBODY);
    try {
      c.as(OTHER, OTHER);
      assertThat(at("chown/f", setattr(stateid4.ANONYMOUS, owners("65534", "65534")))).isEqualTo(NFS4ERR_PERM);
      assertThat(at("chown/f", setattr(stateid4.ANONYMOUS, AttrOpsTest.owner("65534")))).isEqualTo(NFS4ERR_PERM);
    } finally {
      c.as(NOBODY, NOBODY);
    }
    assertThat(at("chown/f", setattr(stateid4.ANONYMOUS, owners("65534", "65534")))).isEqualTo(NFS4_OK);
  }

  /**
   * open/06.t: OPEN of an existing file checks the owner class bits for the owner (the Linux client asks ACCESS for
   * reading only and leaves writing to OPEN); a file the OPEN creates is the caller's to write whatever its mode.
   */
  @Test
  void openOfAnExistingFileChecksTheOwnerClassForTheOwner() {
    tree.dir("/open", 0755, NOBODY);
    tree.file("/open/f", 0477, NOBODY);
    assertThat(at("open", open("f", Open4Ops.WRITE))).isEqualTo(NFS4ERR_ACCESS);
    assertThat(at("open", open("f", Open4Ops.BOTH))).isEqualTo(NFS4ERR_ACCESS);
    assertThat(at("open", openCreate("f", Open4Ops.WRITE, 0644))).isEqualTo(NFS4ERR_ACCESS);
    assertThat(at("open/f", Open4Ops.open("perm", open_claim4.fh(), Open4Ops.WRITE, 0))).isEqualTo(NFS4ERR_ACCESS);
    assertThat(at("open", open("f", Open4Ops.READ))).isEqualTo(NFS4_OK);
    tree.chmod("/open/f", 0277);
    assertThat(at("open", open("f", Open4Ops.READ))).isEqualTo(NFS4ERR_ACCESS);
    assertThat(at("open", open("f", Open4Ops.WRITE))).isEqualTo(NFS4_OK);
    assertThat(at("open", openCreate("new", Open4Ops.BOTH, 0444))).isEqualTo(NFS4_OK);
    assertThat(fs.getattr("/open/new").mode() & 07777).isEqualTo(0444);
  }

  /** rename/09.t: moving a directory to another parent rewrites its "..": write permission on it (vfs_rename). */
  @Test
  void movingADirectoryToAnotherParentNeedsWritePermissionOnIt() {
    tree.dir("/mv", 0755, NOBODY);
    tree.dir("/mv/src", 01777, NOBODY);
    tree.dir("/mv/dst", 0755, NOBODY);
    for (int owner : new int[] {0, OTHER}) {
      tree.dir("/mv/src/d" + owner, 0755, owner);
      assertThat(at("mv/src", savefh(), lookupp(), lookup("dst"), DirOps.rename("d" + owner, "d" + owner)))
          .as("owner %d", owner).isEqualTo(NFS4ERR_ACCESS);
      assertThat(at("mv/src", savefh(), DirOps.rename("d" + owner, "e" + owner))).isEqualTo(NFS4_OK);
    }
    tree.file("/mv/src/f", 0644, OTHER);
    assertThat(at("mv/src", savefh(), lookupp(), lookup("dst"), DirOps.rename("f", "f"))).isEqualTo(NFS4_OK);
  }

  /** The sticky bit: removing or replacing another's entry is EPERM (Linux may_delete), as a rename from it is. */
  @Test
  void theStickyBitAnswersPermForRemoveAndBothEndsOfARename() {
    tree.dir("/sticky", 01777, 0);
    tree.file("/sticky/theirs", 0644, OTHER);
    tree.file("/sticky/mine", 0644, NOBODY);
    assertThat(at("sticky", DirOps.remove("theirs"))).isEqualTo(NFS4ERR_PERM);
    assertThat(at("sticky", savefh(), DirOps.rename("theirs", "x"))).isEqualTo(NFS4ERR_PERM);
    assertThat(at("sticky", savefh(), DirOps.rename("mine", "theirs"))).isEqualTo(NFS4ERR_PERM);
    assertThat(fs.getattr("/sticky/theirs").uid()).isEqualTo(OTHER);
    assertThat(at("sticky", savefh(), DirOps.rename("mine", "mine2"))).isEqualTo(NFS4_OK);
  }
}
