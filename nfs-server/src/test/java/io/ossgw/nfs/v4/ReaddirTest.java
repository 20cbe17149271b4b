package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.DirOps.*;
import static io.ossgw.nfs.v4.V4Client.getfh;
import static io.ossgw.nfs.v4.V4Client.lookup;
import static io.ossgw.nfs.v4.V4Client.putfh;
import static io.ossgw.nfs.v4.V4Client.putrootfh;
import static io.ossgw.nfs.v4.xdr.Nfs4.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.v4.xdr.*;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * READDIR (RFC 8881 §18.23) over TCP against a real {@link io.ossgw.nfs.NfsServer} with NFSv4.1, an engine and the
 * OSS emulator: entries with the attributes asked for, paging by maxcount with cookies from 3 that see every entry
 * once while the directory changes, the pseudo root listing the exports a client may see, the errors, and the OSS
 * requests a listing costs. Exports: "/v4-test" (the bucket), "/a/b" (below a pseudo directory "a") and "/hidden"
 * (only for 10.0.0.0/8, so not for this client).
 */
class ReaddirTest {
  static final Caller USER = new Caller(1000, 1000, new int[0]);
  /** What a Linux client asks for in READDIR (plus rdattr_error). */
  static final bitmap4 LINUX = bitmap4.of(FATTR4_RDATTR_ERROR, FATTR4_TYPE, FATTR4_CHANGE, FATTR4_SIZE,
      FATTR4_FSID, FATTR4_FILEHANDLE, FATTR4_FILEID, FATTR4_MODE, FATTR4_NUMLINKS, FATTR4_OWNER,
      FATTR4_OWNER_GROUP, FATTR4_RAWDEV, FATTR4_SPACE_USED, FATTR4_TIME_ACCESS, FATTR4_TIME_METADATA,
      FATTR4_TIME_MODIFY, FATTR4_MOUNTED_ON_FILEID);

  @TempDir
  static Path state;
  static V4Gateway gw;
  static V4Client c;
  static byte[] root;

  @BeforeAll
  static void start() {
    gw = new V4Gateway(state, ReaddirTest::exports);
    c = new V4Client(gw.port(), 1000, 1000);
    root = fh(c, "/" + V4Gateway.BUCKET);
  }

  static List<Export> exports(io.ossgw.core.engine.Engine e) {
    return List.of(Export.builder("/" + V4Gateway.BUCKET, e.fileSystem()).build(),
        Export.builder("/a/b", e.fileSystem()).build(),
        Export.builder("/hidden", e.fileSystem()).clients(List.of("10.0.0.0/8")).build());
  }

  @AfterAll
  static void stop() {
    c.close();
    gw.close();
  }

  /** A file written through the engine, so that its caches know it. */
  static void file(String path) {
    VirtualFileSystem fs = gw.engine.fileSystem();
    FileHandle h = fs.create(path, 0644, OpenFlags.READ_WRITE, false, USER);
    fs.write(h, 0, ByteBuffer.wrap(new byte[] {1}));
    fs.release(h);
  }

  static byte[] dir(String name) {
    return ((GETFH4resok) ok(c, putfh(root), mkdir(name), getfh())).object().data();
  }

  /** Every page of a listing with {@code maxcount}; between pages {@code between} runs with the page number. */
  static List<entry4> listAll(V4Client cl, byte[] dir, int maxcount, bitmap4 attrs, java.util.function.IntConsumer
      between) {
    List<entry4> all = new ArrayList<>();
    long cookie = 0;
    long verf = 0;
    for (int page = 0; ; page++) {
      READDIR4resok r = ok(cl, putfh(dir), readdir(cookie, verf, maxcount, attrs));
      all.addAll(r.entries());
      if (r.eof()) {
        return all;
      }
      assertThat(r.entries()).as("a page that is not the last holds an entry").isNotEmpty();
      cookie = r.entries().getLast().cookie();
      verf = r.cookieverf();
      between.accept(page);
    }
  }

  static List<String> names(List<entry4> entries) {
    return entries.stream().map(entry4::nameString).toList();
  }

  @Test
  void createdEntriesAreListedWithTheirAttributes() {
    byte[] d = dir("ls");
    ok(c, putfh(d), mkdir("d"));
    ok(c, putfh(d), symlink("l", "d"));
    ok(c, putfh(d), create(NF4FIFO, "p", NO_ATTRS));
    file("/ls/f");
    READDIR4resok r = ok(c, putfh(d), readdir(0, 0, 64 << 10, LINUX));
    assertThat(r.eof()).isTrue();
    assertThat(names(r.entries())).containsExactly("d", "f", "l", "p");
    Map<String, Integer> types = new TreeMap<>();
    long lastCookie = 2;
    for (entry4 e : r.entries()) {
      assertThat(e.cookie()).as("cookies 0-2 are reserved").isGreaterThan(lastCookie);
      lastCookie = e.cookie();
      Map<Integer, Object> a = Attr4Values.decode(e.attrs());
      assertThat(a.get(FATTR4_RDATTR_ERROR)).isEqualTo(NFS4_OK);
      types.put(e.nameString(), (Integer) a.get(FATTR4_TYPE));
      byte[] looked = ((GETFH4resok) ok(c, putfh(d), lookup(e.nameString()), getfh())).object().data();
      assertThat((byte[]) a.get(FATTR4_FILEHANDLE)).as("filehandle of %s", e.nameString()).isEqualTo(looked);
    }
    assertThat(types).containsExactlyEntriesOf(new TreeMap<>(Map.of("d", NF4DIR, "f", NF4REG, "l", NF4LNK,
        "p", NF4FIFO)));
    READDIR4resok none = ok(c, putfh(d), readdir(0, 0, 64 << 10, bitmap4.EMPTY));
    assertThat(none.entries()).allSatisfy(e -> assertThat(e.attrs().attrmask().isEmpty()).isTrue());
  }

  @Test
  void twoThousandEntriesInSmallPagesAreEachSeenOnceWhileTheDirectoryChanges() {
    byte[] d = dir("many");
    VirtualFileSystem fs = gw.engine.fileSystem();
    List<String> made = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      String n = String.format("e%04d", i);
      fs.mknod("/many/" + n, io.ossgw.core.vfs.FileType.FIFO, 0644, 0, USER);
      made.add(n);
    }
    List<entry4> all = listAll(c, d, 1024, bitmap4.of(FATTR4_TYPE, FATTR4_FILEID), page -> {
      if (page == 3) { // one seen entry removed, one unseen removed, one added after the position
        ok(c, putfh(d), remove("e0001"));
        ok(c, putfh(d), remove("e1500"));
        ok(c, putfh(d), create(NF4FIFO, "z-new", NO_ATTRS));
      }
    });
    Map<String, Integer> seen = new HashMap<>();
    names(all).forEach(n -> seen.merge(n, 1, Integer::sum));
    assertThat(seen.values()).as("no entry twice").containsOnly(1);
    List<String> expected = new ArrayList<>(made);
    expected.remove("e1500");
    expected.add("z-new");
    assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(all.stream().mapToLong(entry4::cookie).distinct().count()).isEqualTo(all.size());
    assertThat(all).allSatisfy(e -> assertThat(e.cookie()).isGreaterThanOrEqualTo(3));
  }

  @Test
  void thePseudoRootListsTheExportsTheClientMaySee() {
    List<entry4> all = listAll(c, fh(c, "/"), 200, bitmap4.of(FATTR4_TYPE, FATTR4_FILEID), page -> { });
    assertThat(names(all)).as("/hidden allows 10.0.0.0/8 only").containsExactly("a", V4Gateway.BUCKET);
    assertThat(all).allSatisfy(e -> assertThat(Attr4Values.decode(e.attrs()).get(FATTR4_TYPE)).isEqualTo(NF4DIR));
    assertThat(names(listAll(c, fh(c, "/a"), 4096, LINUX, page -> { }))).containsExactly("b");
    READDIR4resok after = ok(c, putrootfh(), readdir(all.getLast().cookie(), 0, 4096, bitmap4.EMPTY));
    assertThat(after.entries()).isEmpty();
    assertThat(after.eof()).isTrue();
  }

  @Test
  void errors() {
    byte[] d = dir("errs");
    file("/errs/f");
    assertThat(status(c, putfh(d), readdir(1, 0, 4096, bitmap4.EMPTY))).isEqualTo(NFS4ERR_BAD_COOKIE);
    assertThat(status(c, putfh(d), readdir(2, 0, 4096, bitmap4.EMPTY))).isEqualTo(NFS4ERR_BAD_COOKIE);
    assertThat(status(c, putfh(d), readdir(0, 0, 30, bitmap4.EMPTY))).as("not one entry fits")
        .isEqualTo(NFS4ERR_TOOSMALL);
    assertThat(status(c, putfh(d), lookup("f"), readdir(0, 0, 4096, bitmap4.EMPTY))).isEqualTo(NFS4ERR_NOTDIR);
    assertThat(status(c, readdir(0, 0, 4096, bitmap4.EMPTY))).isEqualTo(NFS4ERR_NOFILEHANDLE);
    assertThat(status(c, putfh(d), readdir(0, 0, 4096, bitmap4.of(FATTR4_TIME_MODIFY_SET))))
        .as("a write-only attribute").isEqualTo(NFS4ERR_INVAL);
    ok(c, putfh(d), create(NF4DIR, "locked", V4Client.fattr(bitmap4.of(FATTR4_MODE), w -> w.int32(0300))));
    assertThat(status(c, putfh(d), lookup("locked"), readdir(0, 0, 4096, bitmap4.EMPTY))).as("no read permission")
        .isEqualTo(NFS4ERR_ACCESS);
  }

  @Test
  void aListingCostsWhatV3ReaddirplusCostsNoHeadPerEntry() {
    VirtualFileSystem fs = gw.engine.fileSystem();
    fs.mkdir("/own", 0755, USER);
    for (int i = 0; i < 1200; i++) {
      file("/own/f" + i);
    }
    gw.restart(ReaddirTest::exports);
    try (V4Client fresh = new V4Client(gw.port(), 1000, 1000)) {
      byte[] own = fh(fresh, "/" + V4Gateway.BUCKET + "/own");
      gw.emu.counters().reset();
      List<entry4> all = listAll(fresh, own, 64 << 10, LINUX, page -> { });
      Map<String, Long> got = new TreeMap<>(gw.emu.counters().snapshot());
      got.keySet().removeIf(k -> k.startsWith("Bytes"));
      got.values().removeIf(v -> v == 0);
      assertThat(all).hasSize(1200);
      assertThat(got).as("SEMANTICS.md row nfs-readdirplus-own-1200-restart").isEqualTo(Map.of("ListObjectsV2", 2L));
    } finally {
      c.close();
      c = new V4Client(gw.port(), 1000, 1000);
    }
  }
}
