package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Client.*;
import static io.ossgw.nfs.v4.xdr.Nfs4.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.engine.Engine;
import io.ossgw.core.vfs.Caller;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.Squash;
import io.ossgw.nfs.v4.xdr.ACCESS4resok;
import io.ossgw.nfs.v4.xdr.COMPOUND4res;
import io.ossgw.nfs.v4.xdr.GETATTR4resok;
import io.ossgw.nfs.v4.xdr.SETATTR4res;
import io.ossgw.nfs.v4.xdr.bitmap4;
import io.ossgw.nfs.v4.xdr.fattr4;
import io.ossgw.nfs.v4.xdr.nfs_argop4;
import io.ossgw.nfs.v4.xdr.stateid4;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GETATTR, SETATTR, ACCESS, VERIFY and NVERIFY over TCP against an NfsServer with NFSv4.1 on, over the engine and the
 * OSS emulator: the attributes a Linux client needs, settable attributes landing in the engine (and in OSS), the v3
 * permission rules, and each operation's errors (RFC 8881 §18.x.3).
 */
class AttrOpsTest {
  @TempDir
  static Path state;
  static V4Gateway gw;
  static V4Client c;

  static List<Export> exports(Engine e) {
    return List.of(Export.builder("/" + V4Gateway.BUCKET, e.fileSystem()).build(),
        Export.builder("/admin", e.fileSystem()).squash(Squash.NO_ROOT_SQUASH).build(),
        Export.builder("/ro", e.fileSystem()).readOnly(true).build());
  }

  @BeforeAll
  static void start() {
    gw = new V4Gateway(state, AttrOpsTest::exports);
    gw.engine.fileSystem().mkdir("/d", 0755, new Caller(1000, 1000, new int[0]));
    gw.engine.fileSystem().symlink("x", "/link", new Caller(1000, 1000, new int[0]));
    c = new V4Client(gw.port(), 1000, 1000);
  }

  @AfterAll
  static void stop() {
    c.close();
    gw.close();
  }

  /** PUTROOTFH, LOOKUP of the export and of {@code names}, then {@code ops}. */
  static nfs_argop4[] at(String export, List<String> names, nfs_argop4... ops) {
    nfs_argop4[] all = new nfs_argop4[2 + names.size() + ops.length];
    all[0] = putrootfh();
    all[1] = lookup(export);
    for (int i = 0; i < names.size(); i++) {
      all[2 + i] = lookup(names.get(i));
    }
    System.arraycopy(ops, 0, all, 2 + names.size(), ops.length);
    return all;
  }

  static nfs_argop4[] file(String name, nfs_argop4... ops) {
    return at(V4Gateway.BUCKET, List.of(name), ops);
  }

  /** The last result's status; the compound must have stopped there. */
  static int last(nfs_argop4... ops) {
    COMPOUND4res r = c.call(ops);
    assertThat(r.resarray()).as(V4Wire.show(r)).hasSize(ops.length);
    return r.status();
  }

  static Map<Integer, Object> attrs(nfs_argop4... ops) {
    COMPOUND4res r = c.call(ops);
    assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(NFS4_OK);
    return Attr4Values.of(r, ops.length - 1);
  }

  static fattr4 mode(int m) {
    return fattr(bitmap4.of(FATTR4_MODE), w -> w.int32(m));
  }

  static fattr4 owner(String uid) {
    return fattr(bitmap4.of(FATTR4_OWNER), w -> w.string(uid));
  }

  @Test
  void everyRequiredAndLinuxAttributeOfAFile() {
    gw.put("all.txt", "hello");
    int[] want = Fattr4.SUPPORTED.minus(Fattr4.WRITE_ONLY).words();
    nfs_argop4 getall = V4Wire.op(OP_GETATTR, new io.ossgw.nfs.v4.xdr.GETATTR4args(bitmap4.ofWords(want)));
    COMPOUND4res r = c.call(file("all.txt", getfh(), getall));
    assertThat(r.status()).isEqualTo(NFS4_OK);
    Map<Integer, Object> a = Attr4Values.of(r, 4);
    assertThat(bitmap4.of(a.keySet().stream().mapToInt(Integer::intValue).toArray()))
        .isEqualTo(bitmap4.ofWords(want));
    assertThat(a.get(FATTR4_SUPPORTED_ATTRS)).isEqualTo(Fattr4.SUPPORTED);
    assertThat(a.get(FATTR4_TYPE)).isEqualTo(NF4REG);
    assertThat(a.get(FATTR4_SIZE)).isEqualTo(5L);
    assertThat(a.get(FATTR4_LINK_SUPPORT)).isEqualTo(true);
    assertThat(a.get(FATTR4_SYMLINK_SUPPORT)).isEqualTo(true);
    assertThat(a.get(FATTR4_NAMED_ATTR)).isEqualTo(false);
    assertThat(a.get(FATTR4_UNIQUE_HANDLES)).isEqualTo(true);
    assertThat(a.get(FATTR4_LEASE_TIME)).isEqualTo(90);
    assertThat(a.get(FATTR4_RDATTR_ERROR)).isEqualTo(NFS4_OK);
    assertThat((byte[]) a.get(FATTR4_FILEHANDLE)).isEqualTo(((io.ossgw.nfs.v4.xdr.GETFH4resok) body(r, 3))
        .object().data());
    assertThat(a.get(FATTR4_OWNER)).isEqualTo("1000");
    assertThat(a.get(FATTR4_OWNER_GROUP)).isEqualTo("1000");
    assertThat(a.get(FATTR4_NUMLINKS)).isEqualTo(1);
    assertThat(a.get(FATTR4_MAXREAD)).isEqualTo(1L << 20);
    assertThat(a.get(FATTR4_MAXWRITE)).isEqualTo(1L << 20);
    assertThat(a.get(FATTR4_MAXNAME)).isEqualTo(255);
    assertThat(a.get(FATTR4_CASE_INSENSITIVE)).isEqualTo(false);
    assertThat(a.get(FATTR4_CASE_PRESERVING)).isEqualTo(true);
    assertThat(a.get(FATTR4_MOUNTED_ON_FILEID)).isEqualTo(a.get(FATTR4_FILEID));
    assertThat((Long) a.get(FATTR4_SPACE_TOTAL)).isPositive();
    assertThat(a.get(FATTR4_SPACE_USED)).isEqualTo(512L);
    assertThat(a.get(FATTR4_SUPPATTR_EXCLCREAT)).isEqualTo(Fattr4.EXCLCREAT);
    assertThat((Instant) a.get(FATTR4_TIME_MODIFY)).isCloseTo(Instant.now(), within());
  }

  private static org.assertj.core.data.TemporalUnitOffset within() {
    return new org.assertj.core.data.TemporalUnitWithinOffset(5, java.time.temporal.ChronoUnit.MINUTES);
  }

  @Test
  void unsupportedAttributesAreLeftOutAndWriteOnlyOnesRefused() {
    gw.put("u.txt", "u");
    COMPOUND4res r = c.call(file("u.txt", getattr(FATTR4_SIZE, FATTR4_ACL, FATTR4_HIDDEN, FATTR4_TIME_CREATE, 200)));
    assertThat(r.status()).isEqualTo(NFS4_OK);
    assertThat(((GETATTR4resok) body(r, 3)).objAttributes().attrmask()).isEqualTo(bitmap4.of(FATTR4_SIZE));
    assertThat(last(file("u.txt", getattr(FATTR4_SIZE, FATTR4_TIME_ACCESS_SET)))).isEqualTo(NFS4ERR_INVAL);
  }

  @Test
  void setattrModeTimesAndSizeThenGetattr() {
    gw.put("s.txt", "hello");
    Map<Integer, Object> before = attrs(file("s.txt", getattr(FATTR4_CHANGE, FATTR4_MODE)));
    bitmap4 mask = bitmap4.of(FATTR4_SIZE, FATTR4_MODE, FATTR4_TIME_ACCESS_SET, FATTR4_TIME_MODIFY_SET);
    fattr4 set = fattr(mask, w -> w.int64(3).int32(0600).int32(SET_TO_SERVER_TIME4).int32(SET_TO_CLIENT_TIME4)
        .int64(1_600_000_000L).int32(0));
    COMPOUND4res r = c.call(file("s.txt", setattr(stateid4.ANONYMOUS, set),
        getattr(FATTR4_SIZE, FATTR4_MODE, FATTR4_TIME_MODIFY, FATTR4_TIME_ACCESS, FATTR4_CHANGE)));
    assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(NFS4_OK);
    assertThat(((SETATTR4res) body(r, 3)).attrsset()).isEqualTo(mask);
    Map<Integer, Object> a = Attr4Values.of(r, 4);
    assertThat(a.get(FATTR4_SIZE)).isEqualTo(3L);
    assertThat(a.get(FATTR4_MODE)).isEqualTo(0600);
    assertThat(a.get(FATTR4_TIME_MODIFY)).isEqualTo(Instant.ofEpochSecond(1_600_000_000L));
    assertThat((Instant) a.get(FATTR4_TIME_ACCESS)).isCloseTo(Instant.now(), within());
    assertThat(a.get(FATTR4_CHANGE)).isNotEqualTo(before.get(FATTR4_CHANGE));
    gw.engine.fileSystem().statfs(); // the engine is live; the object in OSS is truncated
    assertThat(new String(readObject("s.txt"))).isEqualTo("hel");
  }

  private static byte[] readObject(String key) {
    try (var o = gw.sdk.getObject(V4Gateway.BUCKET, key)) {
      return o.getObjectContent().readAllBytes();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void ownersAreNumericStringsAndChownIsRootsAsInV3() {
    gw.put("o.txt", "o");
    assertThat(last(file("o.txt", setattr(stateid4.ANONYMOUS, owner("0"))))).isEqualTo(NFS4ERR_PERM);
    assertThat(last(file("o.txt", setattr(stateid4.ANONYMOUS, owner("bob@example.com")))))
        .isEqualTo(NFS4ERR_BADOWNER);
    try {
      c.as(0, 0);
      fattr4 both = fattr(bitmap4.of(FATTR4_OWNER, FATTR4_OWNER_GROUP), w -> w.string("2000").string("3000"));
      Map<Integer, Object> a = attrs(at("admin", List.of("o.txt"), setattr(stateid4.ANONYMOUS, both),
          getattr(FATTR4_OWNER, FATTR4_OWNER_GROUP)));
      assertThat(a).containsEntry(FATTR4_OWNER, "2000").containsEntry(FATTR4_OWNER_GROUP, "3000");
      // root_squash: root is nobody on the default export
      assertThat(last(file("o.txt", setattr(stateid4.ANONYMOUS, owner("0"))))).isEqualTo(NFS4ERR_PERM);
    } finally {
      c.as(1000, 1000);
    }
    assertThat(last(file("o.txt", setattr(stateid4.ANONYMOUS, mode(0777))))).isEqualTo(NFS4ERR_PERM); // not owner
  }

  @Test
  void setattrErrors() {
    gw.put("e.txt", "e");
    assertThat(last(putrootfh(), setattr(stateid4.ANONYMOUS, mode(0777)))).isEqualTo(NFS4ERR_ROFS);
    assertThat(last(file("e.txt", setattr(stateid4.ANONYMOUS, fattr(bitmap4.of(FATTR4_HIDDEN), w -> w.bool(true))))))
        .isEqualTo(NFS4ERR_ATTRNOTSUPP);
    assertThat(last(file("e.txt", setattr(stateid4.ANONYMOUS, fattr(bitmap4.of(FATTR4_TYPE), w -> w.int32(NF4DIR))))))
        .isEqualTo(NFS4ERR_INVAL);
    assertThat(last(file("e.txt", setattr(stateid4.ANONYMOUS, fattr(bitmap4.of(FATTR4_MODE), w -> { })))))
        .isEqualTo(NFS4ERR_BADXDR);
    assertThat(last(file("e.txt", setattr(stateid4.ANONYMOUS, fattr(bitmap4.of(FATTR4_MODE),
        w -> w.int32(0600).int32(0)))))).isEqualTo(NFS4ERR_BADXDR);
    fattr4 size0 = fattr(bitmap4.of(FATTR4_SIZE), w -> w.int64(0));
    assertThat(last(file("d", setattr(stateid4.ANONYMOUS, size0)))).isEqualTo(NFS4ERR_ISDIR);
    assertThat(last(file("link", setattr(stateid4.ANONYMOUS, size0)))).isEqualTo(NFS4ERR_INVAL);
    assertThat(last(file("e.txt", setattr(new stateid4(1, 7, 7), size0)))).isEqualTo(NFS4ERR_BAD_STATEID);
    assertThat(last(file("e.txt", setattr(stateid4.BYPASS, size0)))).isEqualTo(NFS4_OK);
    assertThat(last(at("ro", List.of("e.txt"), setattr(stateid4.ANONYMOUS, mode(0600))))).isEqualTo(NFS4ERR_ROFS);
    COMPOUND4res r = c.call(putrootfh(), setattr(stateid4.ANONYMOUS, mode(0777)));
    assertThat(((SETATTR4res) body(r, 1)).attrsset()).isEqualTo(bitmap4.EMPTY); // attrsset sent on failure too
  }

  @Test
  void accessFollowsV3Rules() {
    gw.put("a.txt", "a"); // owner 1000
    gw.engine.fileSystem().setattr("/a.txt", io.ossgw.core.vfs.SetAttr.mode(0644), null, Caller.ROOT);
    int all = ACCESS4_READ | ACCESS4_MODIFY | ACCESS4_EXTEND | ACCESS4_EXECUTE;
    ACCESS4resok mine = body(c.call(file("a.txt", access(all))), 3);
    assertThat(mine.supported()).isEqualTo(all);
    assertThat(mine.access()).isEqualTo(ACCESS4_READ | ACCESS4_MODIFY | ACCESS4_EXTEND);
    try {
      c.as(2000, 2000);
      ACCESS4resok other = body(c.call(file("a.txt", access(all))), 3);
      assertThat(other.access()).isEqualTo(ACCESS4_READ);
    } finally {
      c.as(1000, 1000);
    }
    ACCESS4resok ro = body(c.call(at("ro", List.of("a.txt"), access(all))), 3);
    assertThat(ro.access()).isEqualTo(ACCESS4_READ);
    ACCESS4resok pseudo = body(c.call(putrootfh(), access(0x3f)), 1);
    assertThat(pseudo.access()).isEqualTo(ACCESS4_READ | ACCESS4_LOOKUP);
    ACCESS4resok xattr = body(c.call(putrootfh(), access(0x40 | ACCESS4_READ)), 1); // RFC 8276 bit: ignored
    assertThat(xattr.supported()).isEqualTo(ACCESS4_READ);
    assertThat(xattr.access()).isEqualTo(ACCESS4_READ);
  }

  @Test
  void verifyAndNverify() {
    gw.put("v.txt", "v");
    COMPOUND4res g = c.call(file("v.txt", getattr(FATTR4_SIZE, FATTR4_MODE, FATTR4_OWNER, FATTR4_TIME_METADATA)));
    fattr4 now = ((GETATTR4resok) body(g, 3)).objAttributes();
    assertThat(last(file("v.txt", verify(now)))).isEqualTo(NFS4_OK);
    assertThat(last(file("v.txt", nverify(now)))).isEqualTo(NFS4ERR_SAME);
    // a SETATTR guarded by VERIFY of the old attributes (v3's ctime guard): runs once, then NOT_SAME
    assertThat(last(file("v.txt", verify(now), setattr(stateid4.ANONYMOUS, mode(0600))))).isEqualTo(NFS4_OK);
    COMPOUND4res guarded = c.call(file("v.txt", verify(now), setattr(stateid4.ANONYMOUS, mode(0640))));
    assertThat(V4Wire.statuses(guarded)).containsExactly(NFS4_OK, NFS4_OK, NFS4_OK, NFS4ERR_NOT_SAME);
    assertThat(attrs(file("v.txt", getattr(FATTR4_MODE)))).containsEntry(FATTR4_MODE, 0600);
    assertThat(last(file("v.txt", nverify(now)))).isEqualTo(NFS4_OK);
    assertThat(last(file("v.txt", verify(fattr(bitmap4.of(FATTR4_RDATTR_ERROR), w -> w.int32(0))))))
        .isEqualTo(NFS4ERR_INVAL);
    assertThat(last(file("v.txt", verify(fattr(bitmap4.of(FATTR4_HIDDEN), w -> w.bool(false))))))
        .isEqualTo(NFS4ERR_ATTRNOTSUPP);
    assertThat(last(file("v.txt", nverify(fattr(bitmap4.of(FATTR4_TIME_MODIFY_SET), w -> w.int32(0))))))
        .isEqualTo(NFS4ERR_INVAL);
  }

  @Test
  void changeMovesWithEveryChange() {
    gw.put("c.txt", "c");
    long c1 = (Long) attrs(file("c.txt", getattr(FATTR4_CHANGE))).get(FATTR4_CHANGE);
    assertThat(last(file("c.txt", setattr(stateid4.ANONYMOUS, mode(0600))))).isEqualTo(NFS4_OK);
    long c2 = (Long) attrs(file("c.txt", getattr(FATTR4_CHANGE))).get(FATTR4_CHANGE);
    fattr4 size = fattr(bitmap4.of(FATTR4_SIZE), w -> w.int64(0));
    assertThat(last(file("c.txt", setattr(stateid4.ANONYMOUS, size)))).isEqualTo(NFS4_OK);
    long c3 = (Long) attrs(file("c.txt", getattr(FATTR4_CHANGE))).get(FATTR4_CHANGE);
    assertThat(c2).isNotEqualTo(c1);
    assertThat(c3).isNotIn(c1, c2);
    assertThat(Duration.ofNanos(c3 - c1)).isPositive();
  }
}
