package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.inode.InodeTable;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.xdr.*;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * READDIRPLUS of a big directory gives out a handle per entry without writing the handle table (issue 21): named
 * handles (parent directory + name) of files the table never recorded, through the real NFSv3 procedures, before and
 * after a gateway restart, and what removals and renames through the gateway do to them.
 */
class NamedHandlesTest {
  private static final int FILES = 1500;
  private static final String LONG = "a-name-longer-than-a-named-handle-can-carry-0123456789";

  @TempDir
  Path state;

  @Test
  void aBigReaddirplusRecordsNothingAndItsHandlesResolveAlsoAfterARestart() {
    Map<String, nfs_fh3> listed;
    try (NfsGateway gw = NfsGateway.simple(state)) {
      for (int i = 0; i < FILES; i++) {
        gw.sdk.putObject(NfsGateway.BUCKET, "big/f" + i, new java.io.ByteArrayInputStream(NfsClient.utf8("v" + i)));
      }
      gw.sdk.putObject(NfsGateway.BUCKET, "big/" + LONG, new java.io.ByteArrayInputStream(NfsClient.utf8("long")));
      try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
        nfs_fh3 dir = c.lookup(c.root("/" + NfsGateway.BUCKET), "big").object();
        listed = readdirplus(c, dir);
        assertThat(listed).hasSize(FILES + 1);
        for (int i = 0; i < FILES; i += 97) {
          nfs_fh3 fh = listed.get("f" + i);
          assertThat(c.readAll(fh, 100)).isEqualTo(NfsClient.utf8("v" + i));
          assertThat(c.lookup(dir, "f" + i).object()).as("LOOKUP gives the listed handle").isEqualTo(fh);
        }
        assertThat(c.readAll(listed.get(LONG), 100)).isEqualTo(NfsClient.utf8("long"));
        assertThat(c.lookup(dir, LONG).object()).isEqualTo(listed.get(LONG));
        assertThat(readdirplus(c, dir)).as("listed again: the same handles").isEqualTo(listed);
      }

      gw.restart();

      try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
        for (int i = 0; i < FILES; i += 97) {
          GETATTR3res a = c.getattr(listed.get("f" + i));
          assertThat(a.status()).as(nfsstat3.name(a.status())).isEqualTo(nfsstat3.NFS3_OK);
          assertThat(c.readAll(listed.get("f" + i), 100)).isEqualTo(NfsClient.utf8("v" + i));
        }
        assertThat(c.readAll(listed.get(LONG), 100)).isEqualTo(NfsClient.utf8("long"));
      }
      gw.server.stop();
      gw.server = null;
    }
    try (InodeTable table = InodeTable.open(state.resolve("nfs/nfs-handles.mv"))) {
      int space = Export.idOf("/" + NfsGateway.BUCKET);
      assertThat(table.known(space, "/big")).as("directories are recorded").isNotNull();
      for (int i = 0; i < FILES; i++) {
        assertThat(table.known(space, "/big/f" + i)).as("listed, looked up and read, never recorded").isNull();
      }
      assertThat(table.known(space, "/big/" + LONG)).as("too long for a named handle: recorded").isNotNull();
    }
  }

  @Test
  void aListedFileRemovedAndMadeAgainIsStaleAndARenamedOneFollowsItsObject() {
    try (NfsGateway gw = NfsGateway.simple(state)) {
      gw.sdk.putObject(NfsGateway.BUCKET, "d/gone", new java.io.ByteArrayInputStream(NfsClient.utf8("old")));
      gw.sdk.putObject(NfsGateway.BUCKET, "d/moving", new java.io.ByteArrayInputStream(NfsClient.utf8("moved")));
      nfs_fh3 gone;
      nfs_fh3 moving;
      try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
        nfs_fh3 dir = c.lookup(c.root("/" + NfsGateway.BUCKET), "d").object();
        Map<String, nfs_fh3> listed = readdirplus(c, dir);
        gone = listed.get("gone");
        moving = listed.get("moving");
        assertThat(c.remove(dir, "gone").status()).isEqualTo(nfsstat3.NFS3_OK);
        nfs_fh3 again = c.put(dir, "gone", NfsClient.utf8("new"));
        assertThat(again).isNotEqualTo(gone);
        assertThat(c.getattr(gone).status()).as("the removed file's handle").isEqualTo(nfsstat3.NFS3ERR_STALE);
        assertThat(c.readAll(again, 100)).isEqualTo(NfsClient.utf8("new"));
        assertThat(c.rename(dir, "moving", dir, "moved").status()).isEqualTo(nfsstat3.NFS3_OK);
        assertThat(c.readAll(moving, 100)).as("the handle follows the rename").isEqualTo(NfsClient.utf8("moved"));
        // a new object at the old name is another file: the listed handle does not lead to it
        c.put(dir, "moving", NfsClient.utf8("newcomer"));
        assertThat(c.readAll(moving, 100)).isEqualTo(NfsClient.utf8("moved"));
      }

      gw.restart();

      try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
        assertThat(c.getattr(gone).status()).isEqualTo(nfsstat3.NFS3ERR_STALE);
        assertThat(c.readAll(moving, 100)).isEqualTo(NfsClient.utf8("moved"));
      }
    }
  }

  /**
   * A file renamed through the gateway answers LOOKUP of its new name with the handle it was listed (or created)
   * with, also after a restart: the Linux client keys inodes by handle, and two handles for one file gave two page
   * caches, one of them stale (found by fsx_diff over the kernel client). A new file at the old name is another file.
   */
  @Test
  void aRenamedFileKeepsItsOneHandleUnderItsNewName() {
    try (NfsGateway gw = NfsGateway.simple(state)) {
      nfs_fh3 created;
      try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
        nfs_fh3 dir = c.mkdir(c.root("/" + NfsGateway.BUCKET), "r", 0755).obj();
        created = c.put(dir, "tmp", NfsClient.utf8("content"));
        assertThat(c.rename(dir, "tmp", dir, "final").status()).isEqualTo(nfsstat3.NFS3_OK);
        assertThat(c.lookup(dir, "final").object()).as("LOOKUP of the new name").isEqualTo(created);
        assertThat(readdirplus(c, dir).get("final")).as("READDIRPLUS").isEqualTo(created);
        nfs_fh3 again = c.put(dir, "tmp", NfsClient.utf8("another file"));
        assertThat(again).isNotEqualTo(created);
        assertThat(c.readAll(created, 100)).isEqualTo(NfsClient.utf8("content"));
      }

      gw.restart();

      try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
        nfs_fh3 dir = c.lookup(c.root("/" + NfsGateway.BUCKET), "r").object();
        assertThat(c.lookup(dir, "final").object()).isEqualTo(created);
        assertThat(c.readAll(created, 100)).isEqualTo(NfsClient.utf8("content"));
        assertThat(c.remove(dir, "final").status()).isEqualTo(nfsstat3.NFS3_OK);
        assertThat(c.getattr(created).status()).isEqualTo(nfsstat3.NFS3ERR_STALE);
        nfs_fh3 recreated = c.put(dir, "final", NfsClient.utf8("new"));
        assertThat(recreated).isNotEqualTo(created);
        assertThat(c.lookup(dir, "final").object()).isEqualTo(recreated);
      }
    }
  }

  /**
   * Files below a directory renamed through the gateway keep the handles (and fileids) they were listed or created
   * with, at any depth, also after a restart: as for a renamed file, a second handle for one file gives the Linux
   * client two inodes of it. A file made under the new name after the rename is another file with its own handle.
   */
  @Test
  void filesBelowARenamedDirectoryKeepTheirOneHandle() {
    try (NfsGateway gw = NfsGateway.simple(state)) {
      nfs_fh3 created;
      nfs_fh3 deep;
      nfs_fh3 listed;
      try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
        nfs_fh3 top = c.root("/" + NfsGateway.BUCKET);
        gw.sdk.putObject(NfsGateway.BUCKET, "old/other", new java.io.ByteArrayInputStream(new byte[] {1, 2}));
        nfs_fh3 dir = c.lookup(top, "old").object();
        listed = readdirplus(c, dir).get("other");
        created = c.put(dir, "made", NfsClient.utf8("made here"));
        nfs_fh3 sub = c.mkdir(dir, "sub", 0755).obj();
        deep = c.put(sub, "deep", NfsClient.utf8("below"));
        long fileid = c.getattr(created).objAttributes().fileid();

        assertThat(c.rename(top, "old", top, "new").status()).isEqualTo(nfsstat3.NFS3_OK);
        nfs_fh3 moved = c.lookup(top, "new").object();
        assertThat(c.lookup(moved, "made").object()).as("LOOKUP below the new name").isEqualTo(created);
        assertThat(c.getattr(created).objAttributes().fileid()).isEqualTo(fileid);
        assertThat(readdirplus(c, moved).get("other")).as("READDIRPLUS").isEqualTo(listed);
        assertThat(c.lookup(c.lookup(moved, "sub").object(), "deep").object()).as("two levels down").isEqualTo(deep);
        nfs_fh3 after = c.put(moved, "later", NfsClient.utf8("after the rename"));
        assertThat(after).isNotIn(created, deep, listed);
      }

      gw.restart();

      try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
        nfs_fh3 moved = c.lookup(c.root("/" + NfsGateway.BUCKET), "new").object();
        assertThat(c.lookup(moved, "made").object()).isEqualTo(created);
        assertThat(c.lookup(moved, "other").object()).isEqualTo(listed);
        assertThat(c.readAll(deep, 100)).isEqualTo(NfsClient.utf8("below"));
      }
    }
  }

  /** Every entry's handle, name to handle, paging with a small maxcount as libnfs does. */
  private static Map<String, nfs_fh3> readdirplus(NfsClient c, nfs_fh3 dir) {
    Map<String, nfs_fh3> out = new LinkedHashMap<>();
    long cookie = 0;
    long verf = 0;
    while (true) {
      READDIRPLUS3res r = c.readdirplus(dir, cookie, verf, 8 * 1024);
      assertThat(r.status()).as(nfsstat3.name(r.status())).isEqualTo(nfsstat3.NFS3_OK);
      for (entryplus3 e : r.entries()) {
        if (!e.name().equals(".") && !e.name().equals("..")) {
          assertThat(e.nameHandle()).as(e.name()).isNotNull();
          out.put(e.name(), e.nameHandle());
        }
        cookie = e.cookie();
      }
      verf = r.cookieverf();
      if (r.eof()) {
        return out;
      }
    }
  }
}
