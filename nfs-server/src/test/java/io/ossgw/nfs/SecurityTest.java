package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.Squash;
import io.ossgw.nfs.xdr.*;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Export rules: client networks, read-only exports, squashing, the secure-port requirement. */
class SecurityTest {
  @TempDir
  static Path state;
  static NfsGateway gw;

  @BeforeAll
  static void start() {
    gw = new NfsGateway(state, null, e -> List.of(
        Export.builder("/rw", e.fileSystem()).build(),
        Export.builder("/ro", e.fileSystem()).readOnly(true).build(),
        Export.builder("/noroot", e.fileSystem()).squash(Squash.NO_ROOT_SQUASH).build(),
        Export.builder("/all", e.fileSystem()).squash(Squash.ALL_SQUASH).anonUid(4242).anonGid(4343).build(),
        Export.builder("/tenet", e.fileSystem()).clients(List.of("10.0.0.0/8", "192.168.0.0/16")).build(),
        Export.builder("/secure", e.fileSystem()).secure(true).build()));
    gw.sdk.putObject(NfsGateway.BUCKET, "existing.txt", new ByteArrayInputStream(NfsClient.utf8("hello")));
  }

  @AfterAll
  static void stop() {
    gw.close();
  }

  @Test
  void aClientOutsideTheNetworksCannotMountOrUseHandles() {
    try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
      assertThat(c.mnt("/tenet").status()).isEqualTo(Nfs3.MNT3ERR_ACCES);
      assertThat(c.mnt("/tenet/sub").status()).isEqualTo(Nfs3.MNT3ERR_ACCES);
    }
  }

  @Test
  void handlesOfAnExportClosedToTheClientAnswerAccesOrPerm(@TempDir Path own) {
    try (NfsGateway g = new NfsGateway(own, null, e -> List.of(Export.builder("/b", e.fileSystem()).build()))) {
      nfs_fh3 root;
      nfs_fh3 f;
      try (NfsClient c = new NfsClient(g.port(), 1000, 1000)) {
        root = c.root("/b");
        f = c.put(root, "f", NfsClient.utf8("secret"));
      }
      // a network no export allows is closed at accept
      g.restart(e -> List.of(Export.builder("/b", e.fileSystem()).clients(List.of("10.0.0.0/8")).build()));
      try (RawRpc r = new RawRpc(g.port())) {
        assertThat(r.closedByServer()).isTrue();
      }
      // admitted for another export, but not this one: ACCES
      g.restart(e -> List.of(Export.builder("/b", e.fileSystem()).clients(List.of("10.0.0.0/8")).build(),
          Export.builder("/open", e.fileSystem()).build()));
      try (NfsClient c = new NfsClient(g.port(), 1000, 1000)) {
        assertThat(c.getattr(root).status()).isEqualTo(nfsstat3.NFS3ERR_ACCES);
        assertThat(c.read(f, 0, 100).status()).isEqualTo(nfsstat3.NFS3ERR_ACCES);
        assertThat(c.lookup(root, "f").status()).isEqualTo(nfsstat3.NFS3ERR_ACCES);
        assertThat(c.mnt("/b").status()).isEqualTo(Nfs3.MNT3ERR_ACCES);
      }
      g.restart(e -> List.of(Export.builder("/b", e.fileSystem()).clients(List.of("127.0.0.0/8")).build()));
      try (NfsClient c = new NfsClient(g.port(), 1000, 1000)) {
        assertThat(c.readAll(f, 100)).isEqualTo(NfsClient.utf8("secret"));
      }
      // secure: this client's source port is above 1024
      g.restart(e -> List.of(Export.builder("/b", e.fileSystem()).secure(true).build()));
      try (NfsClient c = new NfsClient(g.port(), 1000, 1000)) {
        assertThat(c.getattr(root).status()).isEqualTo(nfsstat3.NFS3ERR_PERM);
        assertThat(c.mnt("/b").status()).isEqualTo(Nfs3.MNT3ERR_ACCES);
      }
    }
  }

  @Test
  void aReadOnlyExportRefusesEveryChange() {
    try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
      nfs_fh3 root = c.root("/ro");
      LOOKUP3res f = c.lookup(root, "existing.txt");
      assertThat(f.status()).isEqualTo(nfsstat3.NFS3_OK);
      assertThat(c.readAll(f.object(), 100)).isEqualTo(NfsClient.utf8("hello"));
      assertThat(c.create(root, "new", 0644).status()).isEqualTo(nfsstat3.NFS3ERR_ROFS);
      assertThat(c.mkdir(root, "d", 0755).status()).isEqualTo(nfsstat3.NFS3ERR_ROFS);
      assertThat(c.write(f.object(), 0, NfsClient.utf8("X"), Nfs3.FILE_SYNC).status()).isEqualTo(nfsstat3.NFS3ERR_ROFS);
      assertThat(c.setattr(f.object(), new sattr3(0600, null, null, null, 0, null, 0, null)).status())
          .isEqualTo(nfsstat3.NFS3ERR_ROFS);
      assertThat(c.remove(root, "existing.txt").status()).isEqualTo(nfsstat3.NFS3ERR_ROFS);
      assertThat(c.rename(root, "existing.txt", root, "moved").status()).isEqualTo(nfsstat3.NFS3ERR_ROFS);
      SYMLINK3res s = c.nfs(Nfs3.NFSPROC3_SYMLINK, new SYMLINK3args(new diropargs3(root, "l"), sattr3.NONE, "x"),
          SYMLINK3res::decode);
      assertThat(s.status()).isEqualTo(nfsstat3.NFS3ERR_ROFS);
      int granted = c.access(f.object(), 0x3f).access();
      assertThat(granted & (Nfs3.ACCESS3_MODIFY | Nfs3.ACCESS3_EXTEND | Nfs3.ACCESS3_DELETE)).isZero();
      assertThat(gw.object("existing.txt")).isEqualTo(NfsClient.utf8("hello"));
    }
  }

  @Test
  void rootIsSquashedByDefaultAndAllSquashMapsEveryone() {
    try (NfsClient root = new NfsClient(gw.port(), 0, 0)) {
      nfs_fh3 rw = root.root("/rw");
      nfs_fh3 d = root.mkdir(rw, "squashed", 0777).obj();
      CREATE3res f = root.create(d, "by-root", 0644);
      assertThat(f.objAttributes().uid()).isEqualTo(65534);
      assertThat(f.objAttributes().gid()).isEqualTo(65534);
      root.commit(f.obj());
      assertThat(gw.sdk.getObjectMetadata(NfsGateway.BUCKET, "squashed/by-root").getUserMetadata())
          .containsEntry("uid", "65534").containsEntry("gid", "65534");
      // squashed root cannot chown
      assertThat(root.setattr(f.obj(), new sattr3(null, 0, null, null, 0, null, 0, null)).status())
          .isEqualTo(nfsstat3.NFS3ERR_PERM);

      nfs_fh3 nr = root.root("/noroot");
      CREATE3res g = root.create(root.lookup(nr, "squashed").object(), "by-real-root", 0644);
      assertThat(g.objAttributes().uid()).isZero();
    }
    try (NfsClient user = new NfsClient(gw.port(), 1000, 1000)) {
      nfs_fh3 all = user.root("/all");
      CREATE3res h = user.create(user.lookup(all, "squashed").object(), "by-user", 0644);
      assertThat(h.objAttributes().uid()).isEqualTo(4242);
      assertThat(h.objAttributes().gid()).isEqualTo(4343);
    }
  }

  @Test
  void aSecureExportRefusesUnprivilegedPortsOthersDoNot() {
    try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
      assertThat(c.mnt("/secure").status()).isEqualTo(Nfs3.MNT3ERR_ACCES);
      assertThat(c.getattr(c.root("/rw")).status()).isEqualTo(nfsstat3.NFS3_OK);
    }
  }

  /**
   * Issue 9 item 9: AUTH_NONE says nothing about who calls, so only an all_squash export (where everyone is anonymous
   * anyway) accepts it; elsewhere MNT and every handle get AUTH_ERROR / AUTH_TOOWEAK. NULL needs no export.
   */
  @Test
  void authNoneIsRefusedUnlessTheExportIsAllSquash() throws Exception {
    nfs_fh3 rw;
    try (NfsClient c = new NfsClient(gw.port(), 1000, 1000)) {
      rw = c.root("/rw");
      assertThat(c.mnt("/all").authFlavors()).containsExactly(Nfs3.AUTH_UNIX, Nfs3.AUTH_NONE);
      assertThat(c.mnt("/rw").authFlavors()).containsExactly(Nfs3.AUTH_UNIX);
      assertThat(c.as(0, 0).mkdir(c.root("/noroot"), "for-anon", 0777).status()).isEqualTo(nfsstat3.NFS3_OK);
    }
    try (NfsClient anon = new NfsClient(gw.port(), 1000, 1000).asNone()) {
      anon.ping(Nfs3.NFS_PROGRAM, 3);
      assertThatThrownBy(() -> anon.mnt("/rw")).hasMessageContaining("AUTH_ERROR");
      assertThatThrownBy(() -> anon.getattr(rw)).hasMessageContaining("AUTH_ERROR");
      nfs_fh3 all = anon.root("/all");
      CREATE3res h = anon.create(anon.lookup(all, "for-anon").object(), "by-anon", 0644);
      assertThat(h.status()).isEqualTo(nfsstat3.NFS3_OK);
      assertThat(h.objAttributes().uid()).isEqualTo(4242);
    }
    try (RawRpc r = new RawRpc(gw.port())) {
      r.send(RawRpc.callNone(9, Nfs3.NFS_PROGRAM, 3, Nfs3.NFSPROC3_GETATTR, Xdrs.toBytes(new GETATTR3args(rw))));
      RawRpc.Reply reply = r.read();
      assertThat(reply.accepted()).isFalse();
      assertThat(reply.stat()).as("AUTH_ERROR").isEqualTo(1);
      assertThat(java.nio.ByteBuffer.wrap(reply.body()).getInt()).as("AUTH_TOOWEAK").isEqualTo(5);
    }
  }
}
