package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.model.ObjectMetadata;
import io.ossgw.nfs.xdr.*;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.dcache.oncrpc4j.rpc.OncRpcAcceptedException;
import org.junit.jupiter.api.Test;

/**
 * The NFS and MOUNT procedures through oncrpc4j's RPC client against a server over an engine over the OSS emulator.
 * Every test works in its own directory of the one export.
 */
class NfsRpcTest extends OneExportFixture {
  private static nfs_fh3 dir(String name) {
    MKDIR3res r = nfs.mkdir(root, name, 0755);
    assertThat(r.status()).as("MKDIR " + name).isEqualTo(nfsstat3.NFS3_OK);
    return r.obj();
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void nullProceduresAnswer() throws Exception {
    nfs.ping(Nfs3.NFS_PROGRAM, 3);
    nfs.ping(Nfs3.MOUNT_PROGRAM, 3);
  }

  @Test
  void otherVersionsGetProgMismatch3to3AndOtherProgramsProgUnavail() {
    for (int[] pv : new int[][] {{Nfs3.NFS_PROGRAM, 2}, {Nfs3.NFS_PROGRAM, 4}, {Nfs3.MOUNT_PROGRAM, 1},
        {Nfs3.MOUNT_PROGRAM, 2}}) {
      assertThatThrownBy(() -> nfs.ping(pv[0], pv[1])).as("prog %d vers %d", pv[0], pv[1])
          .isInstanceOf(OncRpcAcceptedException.class).hasMessage("PROG_MISMATCH");
    }
    assertThatThrownBy(() -> nfs.ping(100099, 1)).isInstanceOf(OncRpcAcceptedException.class).hasMessage("PROG_UNAVAIL");
    assertThatThrownBy(() -> nfs.callVoid(Nfs3.NFS_PROGRAM, 3, 22)).isInstanceOf(OncRpcAcceptedException.class).hasMessage("PROC_UNAVAIL");
  }

  @Test
  void mountAcceptsSubdirectoriesAndRefusesWhatIsNoDirectory() {
    nfs_fh3 d = dir("mnt");
    nfs.put(d, "f", NfsClient.utf8("x"));
    mountres3 sub = nfs.mnt("/" + NfsGateway.BUCKET + "/mnt");
    assertThat(sub.status()).isEqualTo(Nfs3.MNT3_OK);
    assertThat(sub.fhandle()).isEqualTo(d);
    assertThat(sub.authFlavors()).containsExactly(Nfs3.AUTH_UNIX);
    assertThat(sub.fhandle().data().length).isLessThanOrEqualTo(Nfs3.NFS3_FHSIZE);
    assertThat(nfs.mnt("/" + NfsGateway.BUCKET + "/mnt/").status()).isEqualTo(Nfs3.MNT3_OK);
    assertThat(nfs.mnt("/" + NfsGateway.BUCKET + "/mnt/f").status()).isEqualTo(Nfs3.MNT3ERR_NOTDIR);
    assertThat(nfs.mnt("/" + NfsGateway.BUCKET + "/nope").status()).isEqualTo(Nfs3.MNT3ERR_NOENT);
    assertThat(nfs.mnt("/other").status()).isEqualTo(Nfs3.MNT3ERR_NOENT);
    assertThat(nfs.mnt("/" + NfsGateway.BUCKET + "/mnt/../mnt").status()).isEqualTo(Nfs3.MNT3ERR_INVAL);
  }

  @Test
  void exportAndDumpListWhatIsExportedAndMounted() {
    exportnode.exports ex = nfs.call(Nfs3.MOUNT_PROGRAM, Nfs3.MOUNTPROC3_EXPORT, null, exportnode.exports::decode);
    assertThat(ex.nodes()).containsExactly(new exportnode("/" + NfsGateway.BUCKET, List.of()));
    nfs.root("/" + NfsGateway.BUCKET);
    mountbody.mountlist dump = nfs.call(Nfs3.MOUNT_PROGRAM, Nfs3.MOUNTPROC3_DUMP, null, mountbody.mountlist::decode);
    assertThat(dump.entries()).contains(new mountbody("127.0.0.1", "/" + NfsGateway.BUCKET));
    nfs.call(Nfs3.MOUNT_PROGRAM, Nfs3.MOUNTPROC3_UMNTALL, null, r -> null);
    dump = nfs.call(Nfs3.MOUNT_PROGRAM, Nfs3.MOUNTPROC3_DUMP, null, mountbody.mountlist::decode);
    assertThat(dump.entries()).isEmpty();
  }

  @Test
  void writeCommitReadAndTheObjectIsPlainWithOssfsMetadata() {
    nfs_fh3 d = dir("rw");
    byte[] data = random(3 * 1024 * 1024 + 17, 1);
    CREATE3res c = nfs.create(d, "data.bin", 0640);
    assertThat(c.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(c.objAttributes().type()).isEqualTo(Nfs3.NF3REG);
    assertThat(c.objAttributes().mode()).isEqualTo(0640);
    assertThat(c.objAttributes().uid()).isEqualTo(1000);
    long verf = -1;
    // out of order, as parallel client writes arrive
    int chunk = 1024 * 1024;
    List<Integer> offsets = new ArrayList<>(List.of(chunk, 0, 3 * chunk, 2 * chunk));
    for (int off : offsets) {
      byte[] piece = java.util.Arrays.copyOfRange(data, off, Math.min(data.length, off + chunk));
      WRITE3res w = nfs.write(c.obj(), off, piece, Nfs3.UNSTABLE);
      assertThat(w.status()).isEqualTo(nfsstat3.NFS3_OK);
      assertThat(w.count()).isEqualTo(piece.length);
      assertThat(w.committed()).isEqualTo(Nfs3.UNSTABLE);
      assertThat(verf == -1 || verf == w.verf()).isTrue();
      verf = w.verf();
    }
    COMMIT3res cm = nfs.commit(c.obj());
    assertThat(cm.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(cm.verf()).isEqualTo(verf);
    // in OSS once COMMIT returned: a plain object with the bytes and ossfs metadata
    assertThat(gw.object("rw/data.bin")).isEqualTo(data);
    ObjectMetadata m = gw.sdk.getObjectMetadata(NfsGateway.BUCKET, "rw/data.bin");
    Map<String, String> meta = m.getUserMetadata();
    assertThat(meta).containsEntry("mode", String.valueOf(0100640)).containsEntry("uid", "1000")
        .containsEntry("gid", "1000").containsKey("mtime");
    assertThat(nfs.readAll(c.obj(), 1 << 20)).isEqualTo(data);
    assertThat(nfs.readAll(c.obj(), 100_000)).isEqualTo(data);
    READ3res tail = nfs.read(c.obj(), data.length - 10, 100);
    assertThat(tail.count()).isEqualTo(10);
    assertThat(tail.eof()).isTrue();
    READ3res past = nfs.read(c.obj(), data.length + 5, 100);
    assertThat(past.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(past.count()).isZero();
    assertThat(past.eof()).isTrue();
    assertThat(nfs.getattr(c.obj()).objAttributes().size()).isEqualTo(data.length);
  }

  @Test
  void fileSyncWritesAreInOssWhenTheyReturn() {
    nfs_fh3 d = dir("sync");
    CREATE3res c = nfs.create(d, "s.txt", 0644);
    WRITE3res w = nfs.write(c.obj(), 0, NfsClient.utf8("durable"), Nfs3.FILE_SYNC);
    assertThat(w.committed()).isEqualTo(Nfs3.FILE_SYNC);
    assertThat(gw.object("sync/s.txt")).isEqualTo(NfsClient.utf8("durable"));
  }

  @Test
  void readsAtLargeCountsAreCappedAtRtmax() {
    nfs_fh3 d = dir("cap");
    byte[] data = random(3 << 20, 2);
    nfs_fh3 f = nfs.put(d, "big", data);
    READ3res r = nfs.read(f, 0, Integer.MAX_VALUE);
    assertThat(r.count()).isEqualTo(NfsServer.MAX_IO);
    assertThat(r.eof()).isFalse();
  }

  @Test
  void lookupDotsAndErrors() {
    nfs_fh3 d = dir("lk");
    nfs_fh3 f = nfs.put(d, "file", NfsClient.utf8("hello"));
    LOOKUP3res r = nfs.lookup(d, "file");
    assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(r.object()).isEqualTo(f);
    assertThat(r.objAttributes().size()).isEqualTo(5);
    assertThat(r.dirAttributes().type()).isEqualTo(Nfs3.NF3DIR);
    assertThat(nfs.lookup(d, ".").object()).isEqualTo(d);
    assertThat(nfs.lookup(d, "..").object()).isEqualTo(root);
    assertThat(nfs.lookup(root, "..").object()).isEqualTo(root);
    assertThat(nfs.lookup(d, "missing").status()).isEqualTo(nfsstat3.NFS3ERR_NOENT);
    assertThat(nfs.lookup(f, "x").status()).isEqualTo(nfsstat3.NFS3ERR_NOTDIR);
    assertThat(nfs.lookup(d, "a".repeat(256)).status()).isEqualTo(nfsstat3.NFS3ERR_NAMETOOLONG);
    // a '/' in a name is ACCES for LOOKUP as for CREATE (SEMANTICS.md, Names), even when the path it spells exists
    assertThat(nfs.lookup(root, "lk/file").status()).isEqualTo(nfsstat3.NFS3ERR_ACCES);
    assertThat(nfs.create(d, "a/b", 0644).status()).isEqualTo(nfsstat3.NFS3ERR_ACCES);
    // the same fileid from GETATTR, LOOKUP and the handle, across calls
    assertThat(nfs.getattr(f).objAttributes().fileid()).isEqualTo(r.objAttributes().fileid());
  }

  @Test
  void createModesAndExistingNames() {
    nfs_fh3 d = dir("cr");
    sattr3 s = new sattr3(0600, null, null, null, Nfs3.DONT_CHANGE, null, Nfs3.DONT_CHANGE, null);
    assertThat(nfs.create(d, "g", new createhow3(Nfs3.GUARDED, s, null)).status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(nfs.create(d, "g", new createhow3(Nfs3.GUARDED, s, null)).status()).isEqualTo(nfsstat3.NFS3ERR_EXIST);
    // UNCHECKED on an existing file with size 0 truncates it
    nfs_fh3 f = nfs.put(d, "u", NfsClient.utf8("content"));
    sattr3 trunc = new sattr3(null, null, null, 0L, Nfs3.DONT_CHANGE, null, Nfs3.DONT_CHANGE, null);
    CREATE3res u = nfs.create(d, "u", new createhow3(Nfs3.UNCHECKED, trunc, null));
    assertThat(u.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(u.obj()).isEqualTo(f);
    assertThat(nfs.getattr(f).objAttributes().size()).isZero();
    // EXCLUSIVE: the same verifier again succeeds (a retransmission), another one is EXIST
    byte[] v1 = {1, 2, 3, 4, 5, 6, 7, 8};
    byte[] v2 = {8, 7, 6, 5, 4, 3, 2, 1};
    CREATE3res e1 = nfs.create(d, "x", new createhow3(Nfs3.EXCLUSIVE, null, v1));
    assertThat(e1.status()).isEqualTo(nfsstat3.NFS3_OK);
    CREATE3res again = nfs.create(d, "x", new createhow3(Nfs3.EXCLUSIVE, null, v1));
    assertThat(again.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(again.obj()).isEqualTo(e1.obj());
    assertThat(nfs.create(d, "x", new createhow3(Nfs3.EXCLUSIVE, null, v2)).status())
        .isEqualTo(nfsstat3.NFS3ERR_EXIST);
    assertThat(nfs.create(d, "..", 0644).status()).isEqualTo(nfsstat3.NFS3ERR_EXIST);
    assertThat(nfs.create(d, "a/b", 0644).status()).isEqualTo(nfsstat3.NFS3ERR_ACCES);
    assertThat(nfs.create(d, "", 0644).status()).isEqualTo(nfsstat3.NFS3ERR_INVAL);
    assertThat(nfs.create(f, "y", 0644).status()).isEqualTo(nfsstat3.NFS3ERR_NOTDIR);
    assertThat(nfs.create(d, "a".repeat(256), 0644).status()).isEqualTo(nfsstat3.NFS3ERR_NAMETOOLONG);
  }

  @Test
  void setattrModeTimesSizeAndGuard() {
    nfs_fh3 d = dir("sa");
    nfs_fh3 f = nfs.put(d, "f", NfsClient.utf8("0123456789"));
    Instant t = Instant.parse("2021-02-03T04:05:06.123456789Z");
    sattr3 s = new sattr3(0604, null, null, 4L, Nfs3.SET_TO_CLIENT_TIME, nfstime3.of(t), Nfs3.SET_TO_CLIENT_TIME,
        nfstime3.of(t));
    SETATTR3res r = nfs.setattr(f, s);
    assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(r.objWcc().before().size()).isEqualTo(10);
    fattr3 a = nfs.getattr(f).objAttributes();
    assertThat(a.mode()).isEqualTo(0604);
    assertThat(a.size()).isEqualTo(4);
    assertThat(a.mtime().toInstant()).isEqualTo(t);
    assertThat(gw.object("sa/f")).isEqualTo(NfsClient.utf8("0123"));
    assertThat(gw.sdk.getObjectMetadata(NfsGateway.BUCKET, "sa/f").getUserMetadata())
        .containsEntry("mode", String.valueOf(0100604));
    // extend with zeros
    assertThat(nfs.setattr(f, new sattr3(null, null, null, 6L, 0, null, 0, null)).status())
        .isEqualTo(nfsstat3.NFS3_OK);
    assertThat(gw.object("sa/f")).isEqualTo(new byte[] {'0', '1', '2', '3', 0, 0});
    // a guard with a stale ctime
    SETATTR3res g = nfs.nfs(Nfs3.NFSPROC3_SETATTR, new SETATTR3args(f, new sattr3(0600, null, null, null, 0, null, 0,
        null), new nfstime3(1, 0)), SETATTR3res::decode);
    assertThat(g.status()).isEqualTo(nfsstat3.NFS3ERR_NOT_SYNC);
    // chown by a non-root caller, chmod by a non-owner
    assertThat(nfs.setattr(f, new sattr3(null, 0, null, null, 0, null, 0, null)).status())
        .isEqualTo(nfsstat3.NFS3ERR_PERM);
    try (NfsClient other = new NfsClient(gw.port(), 2000, 2000)) {
      assertThat(other.setattr(f, new sattr3(0777, null, null, null, 0, null, 0, null)).status())
          .isEqualTo(nfsstat3.NFS3ERR_PERM);
    }
  }

  @Test
  void mkdirRmdirRemoveAndTheirErrors() {
    nfs_fh3 d = dir("rm");
    assertThat(nfs.mkdir(d, "sub", 0750).status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(nfs.mkdir(d, "sub", 0750).status()).isEqualTo(nfsstat3.NFS3ERR_EXIST);
    nfs_fh3 sub = nfs.lookup(d, "sub").object();
    nfs_fh3 f = nfs.put(sub, "f", NfsClient.utf8("x"));
    assertThat(nfs.rmdir(d, "sub").status()).isEqualTo(nfsstat3.NFS3ERR_NOTEMPTY);
    assertThat(nfs.rmdir(sub, "f").status()).isEqualTo(nfsstat3.NFS3ERR_NOTDIR);
    assertThat(nfs.remove(d, "sub").status()).isIn(nfsstat3.NFS3ERR_ISDIR, nfsstat3.NFS3ERR_PERM);
    REMOVE3res r = nfs.remove(sub, "f");
    assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(r.dirWcc().after()).isNotNull();
    assertThat(nfs.getattr(f).status()).as("handle of a removed file").isEqualTo(nfsstat3.NFS3ERR_STALE);
    assertThat(nfs.remove(sub, "f").status()).isEqualTo(nfsstat3.NFS3ERR_NOENT);
    assertThat(nfs.rmdir(d, "sub").status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(gw.sdk.doesObjectExist(NfsGateway.BUCKET, "rm/sub/")).isFalse();
    // a file at the same path again: a new generation, the old handle stays stale
    nfs_fh3 again = nfs.put(d, "g", NfsClient.utf8("1"));
    nfs.remove(d, "g");
    nfs_fh3 g2 = nfs.put(d, "g", NfsClient.utf8("2"));
    assertThat(g2).isNotEqualTo(again);
    assertThat(nfs.getattr(again).status()).isEqualTo(nfsstat3.NFS3ERR_STALE);
    assertThat(nfs.getattr(g2).objAttributes().fileid()).isEqualTo(nfs.getattr(g2).objAttributes().fileid());
  }

  @Test
  void renameKeepsHandlesAndFileids() {
    nfs_fh3 a = dir("rnA");
    nfs_fh3 b = dir("rnB");
    nfs_fh3 f = nfs.put(a, "f", NfsClient.utf8("moving"));
    long fileid = nfs.getattr(f).objAttributes().fileid();
    RENAME3res r = nfs.rename(a, "f", b, "g");
    assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(nfs.getattr(f).objAttributes().fileid()).isEqualTo(fileid);
    assertThat(nfs.readAll(f, 4096)).isEqualTo(NfsClient.utf8("moving"));
    // f is CREATE's named handle: the rename recorded the file, so LOOKUP of its new name answers the recorded
    // handle, which leads to the same object with the same fileid (SEMANTICS.md "File handles")
    nfs_fh3 looked = nfs.lookup(b, "g").object();
    assertThat(nfs.getattr(looked).objAttributes().fileid()).isEqualTo(fileid);
    assertThat(nfs.readAll(looked, 4096)).isEqualTo(NfsClient.utf8("moving"));
    assertThat(nfs.lookup(b, "g").object()).as("one handle for the new name from then on").isEqualTo(looked);
    assertThat(nfs.lookup(a, "f").status()).isEqualTo(nfsstat3.NFS3ERR_NOENT);
    // a directory with contents: handles below it follow
    nfs_fh3 sub = nfs.mkdir(a, "sub", 0755).obj();
    nfs_fh3 inner = nfs.put(sub, "inner", NfsClient.utf8("in"));
    assertThat(nfs.rename(a, "sub", b, "sub2").status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(nfs.readAll(inner, 4096)).isEqualTo(NfsClient.utf8("in"));
    assertThat(gw.object("rnB/sub2/inner")).isEqualTo(NfsClient.utf8("in"));
    // onto an existing file: replaced, whose handle goes stale
    nfs_fh3 victim = nfs.put(b, "victim", NfsClient.utf8("old"));
    nfs_fh3 src = nfs.put(b, "src", NfsClient.utf8("new"));
    assertThat(nfs.rename(b, "src", b, "victim").status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(nfs.getattr(victim).status()).isEqualTo(nfsstat3.NFS3ERR_STALE);
    assertThat(nfs.readAll(src, 10)).isEqualTo(NfsClient.utf8("new"));
    assertThat(nfs.rename(b, "missing", b, "x").status()).isEqualTo(nfsstat3.NFS3ERR_NOENT);
    nfs_fh3 c = nfs.mkdir(a, "c", 0755).obj();
    assertThat(nfs.rename(a, "c", c, "into").status()).isEqualTo(nfsstat3.NFS3ERR_INVAL);
  }

  @Test
  void aRenamedDirectoryIsFoundInItsNewParent() {
    nfs_fh3 a = dir("rdA");
    nfs_fh3 b = dir("rdB");
    nfs_fh3 sub = nfs.mkdir(a, "sub", 0755).obj();
    nfs_fh3 inner = nfs.put(sub, "inner", NfsClient.utf8("in"));
    assertThat(nfs.rename(a, "sub", b, "sub2").status()).isEqualTo(nfsstat3.NFS3_OK);
    LOOKUP3res moved = nfs.lookup(b, "sub2");
    assertThat(moved.status()).as(nfsstat3.name(moved.status())).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(moved.object()).isEqualTo(sub);
    assertThat(nfs.lookup(moved.object(), "inner").object()).isEqualTo(inner);
  }

  @Test
  void symlinkAndReadlink() {
    nfs_fh3 d = dir("sl");
    sattr3 none = sattr3.NONE;
    SYMLINK3res s = nfs.nfs(Nfs3.NFSPROC3_SYMLINK, new SYMLINK3args(new diropargs3(d, "link"), none, "../target/x"),
        SYMLINK3res::decode);
    assertThat(s.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(s.objAttributes().type()).isEqualTo(Nfs3.NF3LNK);
    READLINK3res r = nfs.nfs(Nfs3.NFSPROC3_READLINK, new READLINK3args(s.obj()), READLINK3res::decode);
    assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(r.data()).isEqualTo("../target/x");
    READLINK3res notLink = nfs.nfs(Nfs3.NFSPROC3_READLINK, new READLINK3args(d), READLINK3res::decode);
    assertThat(notLink.status()).isEqualTo(nfsstat3.NFS3ERR_INVAL);
  }

  @Test
  void linkIsRefusedAsEpermAndMknodOfARegularFileIsBadtype() {
    nfs_fh3 d = dir("ln");
    nfs_fh3 f = nfs.put(d, "f", NfsClient.utf8("x"));
    LINK3res l = nfs.nfs(Nfs3.NFSPROC3_LINK, new LINK3args(f, new diropargs3(d, "hard")), LINK3res::decode);
    assertThat(l.status()).isEqualTo(nfsstat3.NFS3ERR_PERM); // link(2) sees EPERM, not the kernel's ENOTSUPP 524
    assertThat(l.fileAttributes()).isNotNull();
    LOOKUP3res none = nfs.lookup(d, "hard");
    assertThat(none.status()).isEqualTo(nfsstat3.NFS3ERR_NOENT);
    MKNOD3res m = nfs.nfs(Nfs3.NFSPROC3_MKNOD, new MKNOD3args(new diropargs3(d, "fifo"), Nfs3.NF3FIFO, sattr3.NONE,
        null), MKNOD3res::decode);
    assertThat(m.status()).isEqualTo(nfsstat3.NFS3_OK);
    MKNOD3res reg = nfs.nfs(Nfs3.NFSPROC3_MKNOD, new MKNOD3args(new diropargs3(d, "r"), Nfs3.NF3REG, null, null),
        MKNOD3res::decode);
    assertThat(reg.status()).isEqualTo(nfsstat3.NFS3ERR_BADTYPE);
  }

  @Test
  void mknodCreatesFifosSocketsAndDevicesInOssfsFormat() {
    nfs_fh3 d = dir("mknod");
    sattr3 mode = new sattr3(0640, null, null, null, 0, null, 0, null);
    MKNOD3res chr = nfs.nfs(Nfs3.NFSPROC3_MKNOD, new MKNOD3args(new diropargs3(d, "null"), Nfs3.NF3CHR, mode,
        new specdata3(1, 3)), MKNOD3res::decode);
    assertThat(chr.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(chr.obj()).isNotNull();
    assertThat(chr.objAttributes().type()).isEqualTo(Nfs3.NF3CHR);
    assertThat(chr.objAttributes().rdev()).isEqualTo(new specdata3(1, 3));
    assertThat(chr.objAttributes().mode()).isEqualTo(0640);
    assertThat(chr.dirWcc().after()).isNotNull();
    // a major/minor beyond 8 bits survives the Linux st_rdev encoding
    MKNOD3res blk = nfs.nfs(Nfs3.NFSPROC3_MKNOD, new MKNOD3args(new diropargs3(d, "blk"), Nfs3.NF3BLK, mode,
        new specdata3(259, 70000)), MKNOD3res::decode);
    assertThat(blk.objAttributes().rdev()).isEqualTo(new specdata3(259, 70000));
    MKNOD3res sock = nfs.nfs(Nfs3.NFSPROC3_MKNOD, new MKNOD3args(new diropargs3(d, "sock"), Nfs3.NF3SOCK, sattr3.NONE,
        null), MKNOD3res::decode);
    assertThat(sock.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(sock.objAttributes().type()).isEqualTo(Nfs3.NF3SOCK);
    assertThat(sock.objAttributes().mode()).isEqualTo(0644);
    MKNOD3res again = nfs.nfs(Nfs3.NFSPROC3_MKNOD, new MKNOD3args(new diropargs3(d, "sock"), Nfs3.NF3FIFO, sattr3.NONE,
        null), MKNOD3res::decode);
    assertThat(again.status()).isEqualTo(nfsstat3.NFS3ERR_EXIST);
    assertThat(nfs.setattr(sock.obj(), new sattr3(null, null, null, 0L, 0, null, 0, null)).status())
        .isEqualTo(nfsstat3.NFS3ERR_INVAL);
    assertThat(nfs.setattr(sock.obj(), new sattr3(0600, null, null, null, 0, null, 0, null)).objWcc().after().mode())
        .isEqualTo(0600);
    for (int badType : new int[] {Nfs3.NF3REG, Nfs3.NF3DIR, Nfs3.NF3LNK}) {
      MKNOD3res bad = nfs.nfs(Nfs3.NFSPROC3_MKNOD, new MKNOD3args(new diropargs3(d, "x"), badType, null, null),
          MKNOD3res::decode);
      assertThat(bad.status()).as("type %d", badType).isEqualTo(nfsstat3.NFS3ERR_BADTYPE);
    }

    ObjectMetadata md = gw.sdk.getObjectMetadata(NfsGateway.BUCKET, "mknod/null");
    assertThat(md.getContentLength()).isZero();
    assertThat(md.getUserMetadata()).containsEntry("mode", Integer.toString(0020640))
        .containsEntry("rdev", Long.toString((1 << 8) | 3));
    assertThat(gw.sdk.getObjectMetadata(NfsGateway.BUCKET, "mknod/sock").getUserMetadata())
        .containsEntry("mode", Integer.toString(0140600)); // after the SETATTR mode above
    LOOKUP3res l = nfs.lookup(d, "blk");
    assertThat(l.objAttributes().type()).isEqualTo(Nfs3.NF3BLK);
    READDIRPLUS3res list = nfs.readdirplus(d, 0, 0, 64 * 1024);
    Map<String, Integer> types = new java.util.HashMap<>();
    for (entryplus3 e : list.entries()) {
      if (e.nameAttributes() != null) {
        types.put(e.name(), e.nameAttributes().type());
      }
    }
    assertThat(types).containsEntry("null", Nfs3.NF3CHR).containsEntry("blk", Nfs3.NF3BLK)
        .containsEntry("sock", Nfs3.NF3SOCK);
  }

  @Test
  void linkCountIsOneForDirectoriesAndFiles() {
    nfs_fh3 d = dir("nlink");
    dir("nlink2"); // a sibling: the export root has several subdirectories
    MKDIR3res sub = nfs.mkdir(d, "sub", 0755);
    nfs_fh3 f = nfs.put(d, "f", NfsClient.utf8("x"));
    assertThat(nfs.getattr(d).objAttributes().nlink()).isEqualTo(1);
    assertThat(sub.objAttributes().nlink()).isEqualTo(1);
    assertThat(nfs.getattr(root).objAttributes().nlink()).isEqualTo(1);
    assertThat(nfs.getattr(f).objAttributes().nlink()).isEqualTo(1);
  }

  @Test
  void fsinfoFsstatPathconfAccess() {
    FSINFO3res i = nfs.nfs(Nfs3.NFSPROC3_FSINFO, new FSINFO3args(root), FSINFO3res::decode);
    assertThat(i.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(i.rtmax()).isEqualTo(1 << 20);
    assertThat(i.wtmax()).isEqualTo(1 << 20);
    assertThat(i.maxfilesize()).isGreaterThan(1L << 44);
    assertThat(i.properties() & Nfs3.FSF3_LINK).isZero();
    assertThat(i.properties() & Nfs3.FSF3_SYMLINK).isNotZero();
    FSSTAT3res s = nfs.nfs(Nfs3.NFSPROC3_FSSTAT, new FSSTAT3args(root), FSSTAT3res::decode);
    assertThat(s.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(s.abytes()).isGreaterThan(1L << 50);
    PATHCONF3res p = nfs.nfs(Nfs3.NFSPROC3_PATHCONF, new PATHCONF3args(root), PATHCONF3res::decode);
    assertThat(p.nameMax()).isEqualTo(255);
    assertThat(p.casePreserving()).isTrue();
    nfs_fh3 d = dir("acc");
    nfs_fh3 f = nfs.put(d, "f", NfsClient.utf8("x"));
    nfs.setattr(f, new sattr3(0640, null, null, null, 0, null, 0, null));
    int all = 0x3f;
    assertThat(nfs.access(f, all).access()).isEqualTo(Nfs3.ACCESS3_READ | Nfs3.ACCESS3_MODIFY | Nfs3.ACCESS3_EXTEND);
    try (NfsClient group = new NfsClient(gw.port(), 2000, 1000); NfsClient other = new NfsClient(gw.port(), 3000, 3000)) {
      assertThat(group.access(f, all).access()).isEqualTo(Nfs3.ACCESS3_READ);
      assertThat(other.access(f, all).access()).isZero();
      assertThat(other.read(f, 0, 10).status()).isEqualTo(nfsstat3.NFS3ERR_ACCES);
      assertThat(group.write(f, 0, NfsClient.utf8("y"), Nfs3.UNSTABLE).status()).isEqualTo(nfsstat3.NFS3ERR_ACCES);
      assertThat(other.create(d, "intrude", 0644).status()).isEqualTo(nfsstat3.NFS3ERR_ACCES);
    }
    assertThat(nfs.access(d, all).access()).isEqualTo(Nfs3.ACCESS3_READ | Nfs3.ACCESS3_LOOKUP | Nfs3.ACCESS3_MODIFY
        | Nfs3.ACCESS3_EXTEND | Nfs3.ACCESS3_DELETE);
  }

  @Test
  void badAndForgedHandles() {
    assertThat(nfs.getattr(new nfs_fh3(new byte[] {1, 2, 3})).status()).isEqualTo(nfsstat3.NFS3ERR_BADHANDLE);
    byte[] forged = root.data().clone();
    forged[8] ^= 1; // another fileid, MAC not updated
    assertThat(nfs.getattr(new nfs_fh3(forged)).status()).isEqualTo(nfsstat3.NFS3ERR_BADHANDLE);
    assertThat(nfs.getattr(new nfs_fh3(new byte[0])).status()).isEqualTo(nfsstat3.NFS3ERR_BADHANDLE);
  }

  @Test
  void nonUtf8NamesAreInval() {
    // a name of the bytes 0xff 0xfe: XDR-valid, not UTF-8
    XdrType args = w -> {
      root.encode(w);
      w.opaque(new byte[] {(byte) 0xff, (byte) 0xfe});
    };
    LOOKUP3res r = nfs.nfs(Nfs3.NFSPROC3_LOOKUP, args, LOOKUP3res::decode);
    assertThat(r.status()).isEqualTo(nfsstat3.NFS3ERR_INVAL);
  }

  @Test
  void readdirAndReaddirplusPageWithAttributesAndHandles() throws Exception {
    Set<String> names = new HashSet<>();
    var pool = java.util.concurrent.Executors.newFixedThreadPool(16);
    List<java.util.concurrent.Future<?>> fs = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      String n = "f" + i + "-" + "x".repeat(i % 40);
      names.add(n);
      fs.add(pool.submit(() -> gw.sdk.putObject(NfsGateway.BUCKET, "ls/" + n, new java.io.ByteArrayInputStream(
          NfsClient.utf8(n)))));
    }
    for (var f : fs) {
      f.get();
    }
    pool.shutdown();
    // written by another OSS client before the gateway looks at the directory
    nfs_fh3 d = nfs.lookup(root, "ls").object();
    // READDIR in small pages
    List<String> seen = new ArrayList<>();
    long cookie = 0;
    long verf = 0;
    int pages = 0;
    while (true) {
      READDIR3res r = nfs.readdir(d, cookie, verf, 2048);
      assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
      pages++;
      for (entry3 e : r.entries()) {
        seen.add(e.name());
        cookie = e.cookie();
      }
      verf = r.cookieverf();
      if (r.eof()) {
        break;
      }
    }
    assertThat(pages).isGreaterThan(5);
    assertThat(seen.subList(0, 2)).containsExactly(".", "..");
    assertThat(seen.subList(2, seen.size())).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(names);
    // READDIRPLUS: attributes from the listing and usable handles
    gw.emu.counters().reset();
    List<entryplus3> plus = new ArrayList<>();
    cookie = 0;
    verf = 0;
    while (true) {
      READDIRPLUS3res r = nfs.readdirplus(d, cookie, verf, 16 * 1024);
      assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
      for (entryplus3 e : r.entries()) {
        plus.add(e);
        cookie = e.cookie();
      }
      verf = r.cookieverf();
      if (r.eof()) {
        break;
      }
    }
    assertThat(gw.emu.counters().get("HeadObject")).as("no HEAD per entry").isLessThan(5);
    assertThat(plus).hasSize(names.size() + 2);
    entryplus3 one = plus.stream().filter(e -> e.name().equals("f7-xxxxxxx")).findFirst().orElseThrow();
    assertThat(one.nameAttributes().size()).isEqualTo(10);
    assertThat(nfs.readAll(one.nameHandle(), 100)).isEqualTo(NfsClient.utf8("f7-xxxxxxx"));
    assertThat(nfs.getattr(one.nameHandle()).objAttributes().fileid()).isEqualTo(one.fileid());
    // a count too small for one entry
    assertThat(nfs.readdir(d, 0, 0, 50).status()).isEqualTo(nfsstat3.NFS3ERR_TOOSMALL);
    assertThat(nfs.readdir(nfs.lookup(d, "f1-x").object(), 0, 0, 4096).status()).isEqualTo(nfsstat3.NFS3ERR_NOTDIR);
  }

  @Test
  void aDirectoryChangedBetweenPagesNeverGivesBadCookieOrRepeats() {
    Set<String> original = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      String n = String.format("n%03d", i);
      original.add(n);
      gw.sdk.putObject(NfsGateway.BUCKET, "chg/" + n, new java.io.ByteArrayInputStream(new byte[0]));
    }
    nfs_fh3 d = nfs.lookup(root, "chg").object();
    List<String> seen = new ArrayList<>();
    long cookie = 0;
    long verf = 0;
    int page = 0;
    while (true) {
      READDIR3res r = nfs.readdir(d, cookie, verf, 1024);
      assertThat(r.status()).as("page %d", page).isEqualTo(nfsstat3.NFS3_OK);
      for (entry3 e : r.entries()) {
        seen.add(e.name());
        cookie = e.cookie();
      }
      verf = r.cookieverf();
      if (r.eof()) {
        break;
      }
      // between pages: entries before and after the position come and go
      nfs.create(d, String.format("n%03d-new%d", page * 7 % 200, page), 0644);
      nfs.remove(d, String.format("n%03d", (page * 13 + 150) % 200));
      page++;
    }
    assertThat(page).isGreaterThan(3);
    List<String> originalSeen = seen.stream().filter(original::contains).toList();
    assertThat(originalSeen).doesNotHaveDuplicates();
    assertThat(seen).doesNotHaveDuplicates();
    // an unknown verifier (a restarted server) is accepted too
    READDIR3res r = nfs.readdir(d, 5, 0x1234567890L, 1024);
    assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(r.entries().getFirst().name()).isNotEqualTo(".");
  }

  @Test
  void nullArgumentsAreGarbage() {
    // a GETATTR without its handle: GARBAGE_ARGS, and the connection keeps working
    assertThatThrownBy(() -> nfs.callVoid(Nfs3.NFS_PROGRAM, 3, Nfs3.NFSPROC3_GETATTR))
        .isInstanceOf(OncRpcAcceptedException.class).hasMessage("GARBAGE_ARGS");
    assertThat(nfs.getattr(root).status()).isEqualTo(nfsstat3.NFS3_OK);
  }
}
