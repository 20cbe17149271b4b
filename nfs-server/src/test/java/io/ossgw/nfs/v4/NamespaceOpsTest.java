package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.DirOps.*;
import static io.ossgw.nfs.v4.V4Client.getattr;
import static io.ossgw.nfs.v4.V4Client.getfh;
import static io.ossgw.nfs.v4.V4Client.lookup;
import static io.ossgw.nfs.v4.V4Client.putfh;
import static io.ossgw.nfs.v4.V4Client.putrootfh;
import static io.ossgw.nfs.v4.V4Client.savefh;
import static io.ossgw.nfs.v4.V4Wire.op;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.v4.xdr.*;
import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CREATE, REMOVE, RENAME, LINK and READLINK (RFC 8881 §18.4, §18.25, §18.26, §18.9, §18.24) over TCP against a real
 * {@link io.ossgw.nfs.NfsServer} with NFSv4.1 on, an engine and the OSS emulator: what each does to the bucket, the
 * current filehandle and change_info4, and the errors of §18.x.3. Exports: "/v4-test" (the bucket), "/other" (the
 * same bucket, another file system for XDEV) and "/ro" (read-only).
 */
class NamespaceOpsTest {
  @TempDir
  static Path state;
  static final Caller USER = new Caller(1000, 1000, new int[0]);
  static V4Gateway gw;
  static V4Client c;
  static byte[] root;

  @BeforeAll
  static void start() {
    gw = new V4Gateway(state, e -> List.of(Export.builder("/" + V4Gateway.BUCKET, e.fileSystem()).build(),
        Export.builder("/other", e.fileSystem()).build(),
        Export.builder("/ro", e.fileSystem()).readOnly(true).build()));
    c = new V4Client(gw.port(), 1000, 1000);
    root = fh(c, "/" + V4Gateway.BUCKET);
  }

  @AfterAll
  static void stop() {
    c.close();
    gw.close();
  }

  /** A new directory under the export root, its filehandle. */
  static byte[] dir(String name) {
    return ((GETFH4resok) ok(c, putfh(root), mkdir(name), getfh())).object().data();
  }

  /**
   * A file written through the engine (as another front end would), so that the engine's caches of the directory,
   * which CREATE filled, know it.
   */
  static void put(String key, String body) {
    VirtualFileSystem fs = gw.engine.fileSystem();
    FileHandle h = fs.create("/" + key, 0644, OpenFlags.READ_WRITE, false, USER);
    fs.write(h, 0, ByteBuffer.wrap(utf8(body)));
    fs.release(h);
  }

  static String object(String key) {
    try (var o = gw.sdk.getObject(V4Gateway.BUCKET, key)) {
      return new String(o.getObjectContent().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static boolean exists(String key) {
    return gw.sdk.doesObjectExist(V4Gateway.BUCKET, key);
  }

  @Test
  void createMakesTheObjectTheCurrentFilehandleAndReportsTheDirectoryChange() {
    COMPOUND4res r = c.call(putfh(root), mkdir("cr"), getfh(), getattr(Nfs4.FATTR4_TYPE));
    assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(Nfs4.NFS4_OK);
    CREATE4resok cr = (CREATE4resok) r.resarray().get(1).resok();
    assertThat(cr.cinfo().atomic()).isFalse();
    assertThat(cr.cinfo().after()).as("the parent's change attribute moves").isNotEqualTo(cr.cinfo().before());
    byte[] fh = ((GETFH4resok) r.resarray().get(2).resok()).object().data();
    assertThat(fh).isNotEqualTo(root);
    assertThat(Attr4Values.of(r, 3).get(Nfs4.FATTR4_TYPE)).isEqualTo(Nfs4.NF4DIR);
    assertThat(exists("cr/")).as("directory marker").isTrue();

    assertThat(status(c, putfh(root), mkdir("cr"))).isEqualTo(Nfs4.NFS4ERR_EXIST);
    assertThat(status(c, putfh(root), create(Nfs4.NF4REG, "reg", NO_ATTRS))).isEqualTo(Nfs4.NFS4ERR_BADTYPE);
    assertThat(status(c, putfh(root), create(Nfs4.NF4ATTRDIR, "ad", NO_ATTRS))).isEqualTo(Nfs4.NFS4ERR_BADTYPE);
    assertThat(status(c, putfh(fh), symlink("l", ""))).isEqualTo(Nfs4.NFS4ERR_INVAL);
    assertThat(status(c, mkdir("x"))).isEqualTo(Nfs4.NFS4ERR_NOFILEHANDLE);
  }

  @Test
  void createAppliesTheModeAndOwnerItWasGiven() {
    byte[] d = dir("modes");
    fattr4 attrs = V4Client.fattr(bitmap4.of(Nfs4.FATTR4_MODE, Nfs4.FATTR4_OWNER_GROUP),
        w -> w.int32(0700).string("1000"));
    COMPOUND4res r = c.call(putfh(d), create(Nfs4.NF4DIR, "private", attrs), getattr(Nfs4.FATTR4_MODE));
    assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(Nfs4.NFS4_OK);
    assertThat(((CREATE4resok) r.resarray().get(1).resok()).attrset()).isEqualTo(attrs.attrmask());
    assertThat(Attr4Values.of(r, 2).get(Nfs4.FATTR4_MODE)).isEqualTo(0700);

    fattr4 chown = V4Client.fattr(bitmap4.of(Nfs4.FATTR4_OWNER), w -> w.string("0"));
    assertThat(status(c, putfh(d), create(Nfs4.NF4DIR, "stolen", chown))).as("chown by a non-root caller")
        .isEqualTo(Nfs4.NFS4ERR_PERM);
    fattr4 size = V4Client.fattr(bitmap4.of(Nfs4.FATTR4_SIZE), w -> w.int64(5));
    assertThat(status(c, putfh(d), create(Nfs4.NF4FIFO, "sized", size))).isEqualTo(Nfs4.NFS4ERR_INVAL);
  }

  @Test
  void specialFilesAreCreatedAsV3MknodDoes() {
    byte[] d = dir("special");
    CREATE4args chr = new CREATE4args(new createtype4(Nfs4.NF4CHR, null, new specdata4(1, 3)), utf8("null"),
        NO_ATTRS);
    COMPOUND4res r = c.call(putfh(d), op(Nfs4.OP_CREATE, chr), getattr(Nfs4.FATTR4_TYPE, Nfs4.FATTR4_RAWDEV));
    assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(Nfs4.NFS4_OK);
    java.util.Map<Integer, Object> a = Attr4Values.of(r, 2);
    assertThat(a.get(Nfs4.FATTR4_TYPE)).isEqualTo(Nfs4.NF4CHR);
    assertThat((long[]) a.get(Nfs4.FATTR4_RAWDEV)).containsExactly(1, 3);
    ok(c, putfh(d), create(Nfs4.NF4FIFO, "fifo", NO_ATTRS));
    ok(c, putfh(d), create(Nfs4.NF4SOCK, "sock", NO_ATTRS));
    assertThat(exists("special/fifo")).isTrue();
  }

  @Test
  void aSymbolicLinkReadsBackItsTarget() {
    byte[] d = dir("links");
    COMPOUND4res r = c.call(putfh(d), symlink("l", "../some/where"), readlink());
    assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(Nfs4.NFS4_OK);
    assertThat(((READLINK4resok) r.resarray().getLast().resok()).link()).isEqualTo("../some/where");
    assertThat(((READLINK4resok) ok(c, putfh(d), lookup("l"), readlink())).link()).isEqualTo("../some/where");
    assertThat(status(c, putfh(d), readlink())).as("a directory").isEqualTo(Nfs4.NFS4ERR_WRONG_TYPE);
    assertThat(status(c, putrootfh(), readlink())).isEqualTo(Nfs4.NFS4ERR_WRONG_TYPE);
    assertThat(status(c, readlink())).isEqualTo(Nfs4.NFS4ERR_NOFILEHANDLE);
  }

  @Test
  void removeTakesFilesAndEmptyDirectoriesAndNamesTheErrors() {
    byte[] d = dir("rm");
    put("rm/file", "x");
    ok(c, putfh(d), mkdir("empty"));
    ok(c, putfh(d), mkdir("full"), mkdir("child"));
    REMOVE4resok rr = ok(c, putfh(d), remove("file"));
    assertThat(rr.cinfo().after()).isNotEqualTo(rr.cinfo().before());
    assertThat(exists("rm/file")).isFalse();
    assertThat(status(c, putfh(d), lookup("file"))).isEqualTo(Nfs4.NFS4ERR_NOENT);
    ok(c, putfh(d), remove("empty"));
    assertThat(exists("rm/empty/")).isFalse();

    assertThat(status(c, putfh(d), remove("full"))).isEqualTo(Nfs4.NFS4ERR_NOTEMPTY);
    assertThat(status(c, putfh(d), remove("missing"))).isEqualTo(Nfs4.NFS4ERR_NOENT);
    assertThat(status(c, putfh(d), remove(""))).isEqualTo(Nfs4.NFS4ERR_INVAL);
    assertThat(status(c, putfh(d), remove("."))).isEqualTo(Nfs4.NFS4ERR_BADNAME);
    assertThat(status(c, putfh(d), remove(".."))).isEqualTo(Nfs4.NFS4ERR_BADNAME);
    assertThat(status(c, putfh(d), remove("a/b"))).isEqualTo(Nfs4.NFS4ERR_BADNAME);
    assertThat(status(c, putfh(d), remove("n".repeat(256)))).isEqualTo(Nfs4.NFS4ERR_NAMETOOLONG);
    assertThat(status(c, putfh(d), remove(new byte[] {(byte) 0xff, 'a'}))).isEqualTo(Nfs4.NFS4ERR_INVAL);
    assertThat(status(c, putfh(d), lookup("full"), remove("child"), putfh(d), lookup("full"), remove("child")))
        .isEqualTo(Nfs4.NFS4ERR_NOENT);
    assertThat(status(c, putfh(d), lookup("full"), lookup("missing"))).isEqualTo(Nfs4.NFS4ERR_NOENT);

    put("rm/plain", "x");
    assertThat(status(c, putfh(d), lookup("plain"), remove("x"))).isEqualTo(Nfs4.NFS4ERR_NOTDIR);
    assertThat(status(c, putrootfh(), remove(V4Gateway.BUCKET))).isEqualTo(Nfs4.NFS4ERR_ROFS);
    assertThat(status(c, putfh(fh(c, "/ro/rm")), remove("plain"))).isEqualTo(Nfs4.NFS4ERR_ROFS);
    assertThat(exists("rm/plain")).isTrue();
  }

  @Test
  void renameMovesFilesOverFilesAndNonEmptyDirectories() {
    byte[] d = dir("mv");
    put("mv/a", "A");
    put("mv/b", "B");
    RENAME4resok rr = ok(c, putfh(d), savefh(), rename("a", "b"));
    assertThat(rr.sourceCinfo().after()).isNotEqualTo(rr.sourceCinfo().before());
    assertThat(object("mv/b")).isEqualTo("A");
    assertThat(exists("mv/a")).isFalse();

    ok(c, putfh(d), mkdir("tree"), mkdir("sub"));
    put("mv/tree/sub/f", "deep");
    byte[] other = dir("mv2");
    ok(c, putfh(d), savefh(), putfh(other), rename("tree", "moved"));
    assertThat(object("mv2/moved/sub/f")).isEqualTo("deep");
    assertThat(exists("mv/tree/sub/f")).isFalse();
    byte[] sub = fh(c, "/" + V4Gateway.BUCKET + "/mv2/moved/sub");
    assertThat(status(c, putfh(sub), lookup("f"))).as("handles below a renamed directory follow it")
        .isEqualTo(Nfs4.NFS4_OK);
    assertThat(status(c, putfh(other), savefh(), rename("moved", "moved"))).as("same name: nothing to do")
        .isEqualTo(Nfs4.NFS4_OK);
  }

  @Test
  void renameErrors() {
    byte[] d = dir("mverr");
    put("mverr/f", "F");
    ok(c, putfh(d), mkdir("dir"));
    ok(c, putfh(d), mkdir("full"), mkdir("x"));
    ok(c, putfh(d), mkdir("empty"));
    assertThat(status(c, putfh(d), rename("f", "g"))).isEqualTo(Nfs4.NFS4ERR_NOFILEHANDLE);
    assertThat(status(c, putfh(d), savefh(), rename("nope", "g"))).isEqualTo(Nfs4.NFS4ERR_NOENT);
    assertThat(status(c, putfh(d), savefh(), rename("dir", "f"))).as("directory over a file")
        .isEqualTo(Nfs4.NFS4ERR_EXIST);
    assertThat(status(c, putfh(d), savefh(), rename("f", "empty"))).as("file over a directory")
        .isEqualTo(Nfs4.NFS4ERR_EXIST);
    assertThat(status(c, putfh(d), savefh(), rename("dir", "full"))).as("over a non-empty directory")
        .isEqualTo(Nfs4.NFS4ERR_EXIST);
    assertThat(status(c, putfh(d), savefh(), lookup("dir"), rename("dir", "inside"))).as("into itself")
        .isEqualTo(Nfs4.NFS4ERR_INVAL);
    assertThat(status(c, putfh(d), savefh(), rename("f", ".."))).isEqualTo(Nfs4.NFS4ERR_BADNAME);
    assertThat(status(c, putfh(d), savefh(), rename("", "g"))).isEqualTo(Nfs4.NFS4ERR_INVAL);
    byte[] otherExport = fh(c, "/other");
    assertThat(status(c, putfh(d), savefh(), putfh(otherExport), rename("f", "g"))).isEqualTo(Nfs4.NFS4ERR_XDEV);
    assertThat(status(c, putfh(d), savefh(), putrootfh(), rename("f", "g")))
        .isEqualTo(Nfs4.NFS4ERR_XDEV);
    assertThat(status(c, putrootfh(), savefh(), rename("other", "g"))).isEqualTo(Nfs4.NFS4ERR_ROFS);
    byte[] ro = fh(c, "/ro/mverr");
    assertThat(status(c, putfh(ro), savefh(), rename("f", "g"))).isEqualTo(Nfs4.NFS4ERR_ROFS);
    assertThat(object("mverr/f")).isEqualTo("F");
  }

  @Test
  void linkAnswersAsV3LinkDoes() {
    byte[] d = dir("ln");
    put("ln/f", "F");
    byte[] f = fh(c, "/" + V4Gateway.BUCKET + "/ln/f");
    assertThat(status(c, putfh(f), savefh(), putfh(d), link("g"))).as("no hard links in OSS")
        .isEqualTo(Nfs4.NFS4ERR_PERM);
    assertThat(exists("ln/g")).isFalse();
    assertThat(status(c, putfh(d), link("g"))).isEqualTo(Nfs4.NFS4ERR_NOFILEHANDLE);
    assertThat(status(c, putfh(f), savefh(), putfh(d), link("."))).isEqualTo(Nfs4.NFS4ERR_BADNAME);
    assertThat(status(c, putfh(f), savefh(), putfh(f), link("g"))).isEqualTo(Nfs4.NFS4ERR_NOTDIR);
    assertThat(status(c, putfh(d), savefh(), putfh(d), link("g"))).isEqualTo(Nfs4.NFS4ERR_ISDIR);
    assertThat(status(c, putfh(f), savefh(), putfh(fh(c, "/other/ln")), link("g"))).isEqualTo(Nfs4.NFS4ERR_XDEV);
    byte[] roFile = fh(c, "/ro/ln/f");
    assertThat(status(c, putfh(roFile), savefh(), putfh(fh(c, "/ro/ln")), link("g"))).isEqualTo(Nfs4.NFS4ERR_ROFS);
  }
}
