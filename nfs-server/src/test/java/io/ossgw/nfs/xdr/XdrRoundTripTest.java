package io.ossgw.nfs.xdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every RFC 1813 type of this module: encode, decode, compare, encode again, with random field values (distinct
 * values catch swapped fields) and both union arms of every result. Plus the bounds of decoding.
 */
class XdrRoundTripTest {
  private static final Random R = new Random(42);

  static int i() {
    return R.nextInt();
  }

  static long l() {
    return R.nextLong();
  }

  static nfs_fh3 fh() {
    byte[] b = new byte[1 + R.nextInt(64)];
    R.nextBytes(b);
    return new nfs_fh3(b);
  }

  static nfstime3 t() {
    return new nfstime3(i(), R.nextInt(1_000_000_000));
  }

  static fattr3 fattr() {
    return new fattr3(1 + R.nextInt(7), R.nextInt(07777), i(), i(), i(), l(), l(), new specdata3(i(), i()), l(), l(),
        t(), t(), t());
  }

  static wcc_data wcc() {
    return switch (R.nextInt(3)) {
      case 0 -> wcc_data.EMPTY;
      case 1 -> new wcc_data(new wcc_attr(l(), t(), t()), null);
      default -> new wcc_data(new wcc_attr(l(), t(), t()), fattr());
    };
  }

  static sattr3 sattr() {
    boolean c = R.nextBoolean();
    return new sattr3(R.nextBoolean() ? i() : null, R.nextBoolean() ? i() : null, R.nextBoolean() ? i() : null,
        R.nextBoolean() ? l() : null, c ? Nfs3.SET_TO_CLIENT_TIME : Nfs3.SET_TO_SERVER_TIME, c ? t() : null,
        c ? Nfs3.DONT_CHANGE : Nfs3.SET_TO_CLIENT_TIME, c ? null : t());
  }

  static String name() {
    return "n\u00e9\u4e2d" + R.nextInt(1000) + "x".repeat(R.nextInt(5));
  }

  static diropargs3 dirop() {
    return new diropargs3(fh(), name());
  }

  static ByteBuffer data(int n) {
    byte[] b = new byte[n];
    R.nextBytes(b);
    return ByteBuffer.wrap(b);
  }

  record Case(String type, XdrType value, Function<XdrReader, ?> decoder) {
    @Override
    public String toString() {
      return type;
    }
  }

  static Stream<Arguments> cases() {
    List<Case> c = new ArrayList<>();
    c.add(new Case("nfs_fh3", fh(), nfs_fh3::decode));
    c.add(new Case("nfstime3", t(), nfstime3::decode));
    c.add(new Case("specdata3", new specdata3(i(), i()), specdata3::decode));
    c.add(new Case("fattr3", fattr(), fattr3::decode));
    c.add(new Case("wcc_attr", new wcc_attr(l(), t(), t()), wcc_attr::decode));
    for (int k = 0; k < 3; k++) {
      c.add(new Case("wcc_data", wcc(), wcc_data::decode));
      c.add(new Case("sattr3", sattr(), sattr3::decode));
    }
    c.add(new Case("sattr3 NONE", sattr3.NONE, sattr3::decode));
    c.add(new Case("diropargs3", dirop(), diropargs3::decode));
    c.add(new Case("createhow3 UNCHECKED", new createhow3(Nfs3.UNCHECKED, sattr(), null), createhow3::decode));
    c.add(new Case("createhow3 GUARDED", new createhow3(Nfs3.GUARDED, sattr(), null), createhow3::decode));
    c.add(new Case("createhow3 EXCLUSIVE", new createhow3(Nfs3.EXCLUSIVE, null, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}),
        createhow3::decode));
    c.add(new Case("entry3", new entry3(l(), name(), l()), entry3::decode));
    c.add(new Case("entryplus3", new entryplus3(l(), name(), l(), fattr(), fh()), entryplus3::decode));
    c.add(new Case("entryplus3 bare", new entryplus3(l(), name(), l(), null, null), entryplus3::decode));
    // arguments
    c.add(new Case("GETATTR3args", new GETATTR3args(fh()), GETATTR3args::decode));
    c.add(new Case("SETATTR3args", new SETATTR3args(fh(), sattr(), t()), SETATTR3args::decode));
    c.add(new Case("SETATTR3args unguarded", new SETATTR3args(fh(), sattr(), null), SETATTR3args::decode));
    c.add(new Case("LOOKUP3args", new LOOKUP3args(dirop()), LOOKUP3args::decode));
    c.add(new Case("ACCESS3args", new ACCESS3args(fh(), i()), ACCESS3args::decode));
    c.add(new Case("READLINK3args", new READLINK3args(fh()), READLINK3args::decode));
    c.add(new Case("READ3args", new READ3args(fh(), l(), i()), READ3args::decode));
    c.add(new Case("WRITE3args", new WRITE3args(fh(), l(), 1001, Nfs3.FILE_SYNC, data(1001)), WRITE3args::decode));
    c.add(new Case("CREATE3args", new CREATE3args(dirop(), new createhow3(Nfs3.GUARDED, sattr(), null)),
        CREATE3args::decode));
    c.add(new Case("MKDIR3args", new MKDIR3args(dirop(), sattr()), MKDIR3args::decode));
    c.add(new Case("SYMLINK3args", new SYMLINK3args(dirop(), sattr(), "../a/" + name()), SYMLINK3args::decode));
    c.add(new Case("MKNOD3args CHR", new MKNOD3args(dirop(), Nfs3.NF3CHR, sattr(), new specdata3(i(), i())),
        MKNOD3args::decode));
    c.add(new Case("MKNOD3args FIFO", new MKNOD3args(dirop(), Nfs3.NF3FIFO, sattr(), null), MKNOD3args::decode));
    c.add(new Case("MKNOD3args REG", new MKNOD3args(dirop(), Nfs3.NF3REG, null, null), MKNOD3args::decode));
    c.add(new Case("REMOVE3args", new REMOVE3args(dirop()), REMOVE3args::decode));
    c.add(new Case("RMDIR3args", new RMDIR3args(dirop()), RMDIR3args::decode));
    c.add(new Case("RENAME3args", new RENAME3args(dirop(), dirop()), RENAME3args::decode));
    c.add(new Case("LINK3args", new LINK3args(fh(), dirop()), LINK3args::decode));
    c.add(new Case("READDIR3args", new READDIR3args(fh(), l(), l(), i()), READDIR3args::decode));
    c.add(new Case("READDIRPLUS3args", new READDIRPLUS3args(fh(), l(), l(), i(), i()), READDIRPLUS3args::decode));
    c.add(new Case("FSSTAT3args", new FSSTAT3args(fh()), FSSTAT3args::decode));
    c.add(new Case("FSINFO3args", new FSINFO3args(fh()), FSINFO3args::decode));
    c.add(new Case("PATHCONF3args", new PATHCONF3args(fh()), PATHCONF3args::decode));
    c.add(new Case("COMMIT3args", new COMMIT3args(fh(), l(), i()), COMMIT3args::decode));
    // results, both arms
    int ok = nfsstat3.NFS3_OK;
    int err = nfsstat3.NFS3ERR_ACCES;
    c.add(new Case("GETATTR3res ok", new GETATTR3res(ok, fattr()), GETATTR3res::decode));
    c.add(new Case("GETATTR3res fail", GETATTR3res.fail(err), GETATTR3res::decode));
    c.add(new Case("SETATTR3res", new SETATTR3res(err, wcc()), SETATTR3res::decode));
    c.add(new Case("LOOKUP3res ok", new LOOKUP3res(ok, fh(), fattr(), null), LOOKUP3res::decode));
    c.add(new Case("LOOKUP3res fail", LOOKUP3res.fail(err, fattr()), LOOKUP3res::decode));
    c.add(new Case("ACCESS3res ok", new ACCESS3res(ok, fattr(), i()), ACCESS3res::decode));
    c.add(new Case("ACCESS3res fail", ACCESS3res.fail(err, null), ACCESS3res::decode));
    c.add(new Case("READLINK3res ok", new READLINK3res(ok, fattr(), "/x/" + name()), READLINK3res::decode));
    c.add(new Case("READLINK3res fail", READLINK3res.fail(err, fattr()), READLINK3res::decode));
    c.add(new Case("READ3res ok", new READ3res(ok, fattr(), 13, true, data(13)), READ3res::decode));
    c.add(new Case("READ3res fail", READ3res.fail(err, null), READ3res::decode));
    c.add(new Case("WRITE3res ok", new WRITE3res(ok, wcc(), i(), Nfs3.DATA_SYNC, l()), WRITE3res::decode));
    c.add(new Case("WRITE3res fail", WRITE3res.fail(err, wcc()), WRITE3res::decode));
    c.add(new Case("CREATE3res ok", new CREATE3res(ok, fh(), fattr(), wcc()), CREATE3res::decode));
    c.add(new Case("CREATE3res fail", CREATE3res.fail(err, wcc()), CREATE3res::decode));
    c.add(new Case("MKDIR3res ok", new MKDIR3res(ok, null, fattr(), wcc()), MKDIR3res::decode));
    c.add(new Case("MKDIR3res fail", MKDIR3res.fail(err, wcc()), MKDIR3res::decode));
    c.add(new Case("SYMLINK3res ok", new SYMLINK3res(ok, fh(), null, wcc()), SYMLINK3res::decode));
    c.add(new Case("SYMLINK3res fail", SYMLINK3res.fail(err, wcc()), SYMLINK3res::decode));
    c.add(new Case("MKNOD3res ok", new MKNOD3res(ok, fh(), fattr(), wcc()), MKNOD3res::decode));
    c.add(new Case("MKNOD3res fail", MKNOD3res.fail(nfsstat3.NFS3ERR_NOTSUPP, wcc()), MKNOD3res::decode));
    c.add(new Case("REMOVE3res", new REMOVE3res(ok, wcc()), REMOVE3res::decode));
    c.add(new Case("RMDIR3res", new RMDIR3res(err, wcc()), RMDIR3res::decode));
    c.add(new Case("RENAME3res", new RENAME3res(ok, wcc(), wcc()), RENAME3res::decode));
    c.add(new Case("LINK3res", new LINK3res(nfsstat3.NFS3ERR_NOTSUPP, fattr(), wcc()), LINK3res::decode));
    c.add(new Case("READDIR3res ok", new READDIR3res(ok, fattr(), l(), List.of(new entry3(l(), name(), l()),
        new entry3(l(), name(), l())), true), READDIR3res::decode));
    c.add(new Case("READDIR3res empty", new READDIR3res(ok, null, l(), List.of(), false), READDIR3res::decode));
    c.add(new Case("READDIR3res fail", READDIR3res.fail(err, fattr()), READDIR3res::decode));
    c.add(new Case("READDIRPLUS3res ok", new READDIRPLUS3res(ok, fattr(), l(), List.of(new entryplus3(l(), name(),
        l(), fattr(), fh()), new entryplus3(l(), name(), l(), null, fh())), false), READDIRPLUS3res::decode));
    c.add(new Case("READDIRPLUS3res fail", READDIRPLUS3res.fail(err, null), READDIRPLUS3res::decode));
    c.add(new Case("FSSTAT3res ok", new FSSTAT3res(ok, fattr(), l(), l(), l(), l(), l(), l(), i()),
        FSSTAT3res::decode));
    c.add(new Case("FSSTAT3res fail", FSSTAT3res.fail(err, fattr()), FSSTAT3res::decode));
    c.add(new Case("FSINFO3res ok", new FSINFO3res(ok, fattr(), i(), i(), i(), i(), i(), i(), i(), l(), t(), i()),
        FSINFO3res::decode));
    c.add(new Case("FSINFO3res fail", FSINFO3res.fail(err, null), FSINFO3res::decode));
    c.add(new Case("PATHCONF3res ok", new PATHCONF3res(ok, fattr(), i(), i(), true, false, true, false),
        PATHCONF3res::decode));
    c.add(new Case("PATHCONF3res fail", PATHCONF3res.fail(err, fattr()), PATHCONF3res::decode));
    c.add(new Case("COMMIT3res ok", new COMMIT3res(ok, wcc(), l()), COMMIT3res::decode));
    c.add(new Case("COMMIT3res fail", COMMIT3res.fail(err, wcc()), COMMIT3res::decode));
    // MOUNT v3
    c.add(new Case("mountres3 ok", new mountres3(Nfs3.MNT3_OK, fh(), new int[] {1, 0, 6}), mountres3::decode));
    c.add(new Case("mountres3 fail", mountres3.fail(Nfs3.MNT3ERR_ACCES), mountres3::decode));
    c.add(new Case("mountbody", new mountbody("host", "/" + name()), mountbody::decode));
    c.add(new Case("mountlist", new mountbody.mountlist(List.of(new mountbody("a", "/b"), new mountbody("c", "/d"))),
        mountbody.mountlist::decode));
    c.add(new Case("exportnode", new exportnode("/b", List.of("10.0.0.0/8", "*")), exportnode::decode));
    c.add(new Case("exports", new exportnode.exports(List.of(new exportnode("/a", List.of()),
        new exportnode("/b", List.of("1.2.3.4/32")))), exportnode.exports::decode));
    return c.stream().map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void roundTrip(Case c) {
    byte[] bytes = Xdrs.toBytes(c.value());
    assertThat(bytes.length % 4).as("XDR is 4-byte aligned").isZero();
    Object decoded = Xdrs.fromBytes(bytes, c.decoder());
    assertThat(Xdrs.toBytes((XdrType) decoded)).as("re-encoded").isEqualTo(bytes);
    if (!(c.value() instanceof WRITE3args) && !(c.value() instanceof READ3res)) {
      assertThat(decoded).isEqualTo(c.value()); // records with buffers compare their remaining bytes anyway
    }
    // one byte short: always an XdrException, never anything else
    if (bytes.length > 0) {
      byte[] shorter = java.util.Arrays.copyOf(bytes, bytes.length - 1);
      assertThatThrownBy(() -> Xdrs.fromBytes(shorter, c.decoder())).isInstanceOf(XdrException.class);
    }
  }

  @Test
  void fixedSizesMatchRfc1813() {
    assertThat(Xdrs.toBytes(fattr())).hasSize(fattr3.SIZE).hasSize(84);
    assertThat(Xdrs.toBytes(new wcc_attr(1, t(), t()))).hasSize(24);
    assertThat(Xdrs.toBytes(new READDIR3res(nfsstat3.NFS3_OK, fattr(), 1, List.of(), true)))
        .hasSize(READDIR3res.EMPTY_OK_SIZE);
    entry3 e = new entry3(1, "abcde", 2);
    assertThat(Xdrs.toBytes(e).length + 4).isEqualTo(entry3.size("abcde"));
    entryplus3 p = new entryplus3(1, "abcde", 2, fattr(), new nfs_fh3(new byte[25]));
    assertThat(Xdrs.toBytes(p).length + 4).isEqualTo(entryplus3.size("abcde", 25));
  }

  @Test
  void goldenBytesOfAGetattrReply() {
    fattr3 a = new fattr3(Nfs3.NF3REG, 0644, 1, 1000, 100, 5, 512, specdata3.NONE, 7, 42, new nfstime3(1, 2),
        new nfstime3(3, 4), new nfstime3(5, 6));
    ByteBuffer b = ByteBuffer.wrap(Xdrs.toBytes(new GETATTR3res(nfsstat3.NFS3_OK, a)));
    int[] ints = {0, 1, 0644, 1, 1000, 100};
    for (int v : ints) {
      assertThat(b.getInt()).isEqualTo(v);
    }
    assertThat(b.getLong()).isEqualTo(5);
    assertThat(b.getLong()).isEqualTo(512);
    assertThat(b.getInt()).isZero();
    assertThat(b.getInt()).isZero();
    assertThat(b.getLong()).isEqualTo(7);
    assertThat(b.getLong()).isEqualTo(42);
    for (int v = 1; v <= 6; v++) {
      assertThat(b.getInt()).isEqualTo(v);
    }
    assertThat(b.hasRemaining()).isFalse();
  }

  @Test
  void hostileLengthsAreRefusedBeforeAllocating() {
    // a handle claiming 2^31-1 bytes in a 12-byte message
    byte[] huge = {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0, 0, 0, 0, 0, 0, 0};
    assertThatThrownBy(() -> Xdrs.fromBytes(huge, nfs_fh3::decode)).isInstanceOf(XdrException.class)
        .hasMessageContaining("limit 64");
    byte[] negative = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xfe};
    assertThatThrownBy(() -> Xdrs.fromBytes(negative, nfs_fh3::decode)).isInstanceOf(XdrException.class);
    // a name just over the decode limit
    byte[] name = ByteBuffer.allocate(8).putInt(0).putInt(Nfs3.MAX_NAME_DECODE + 1).array();
    assertThatThrownBy(() -> Xdrs.fromBytes(name, diropargs3::decode)).isInstanceOf(XdrException.class);
    // WRITE data over wtmax
    byte[] write = Xdrs.toBytes(new WRITE3args(new nfs_fh3(new byte[4]), 0, 0, 0, ByteBuffer.allocate(0)));
    ByteBuffer w = ByteBuffer.wrap(write);
    w.putInt(write.length - 4, WRITE3args.MAX_DATA + 1);
    assertThatThrownBy(() -> Xdrs.fromBytes(write, WRITE3args::decode)).isInstanceOf(XdrException.class);
  }

  @Test
  void badDiscriminantsAndBoolsAreGarbage() {
    byte[] bool2 = {0, 0, 0, 2};
    assertThatThrownBy(() -> Xdrs.fromBytes(bool2, post_op_attr::decode)).isInstanceOf(XdrException.class);
    byte[] how = {0, 0, 0, 3};
    assertThatThrownBy(() -> Xdrs.fromBytes(how, createhow3::decode)).isInstanceOf(XdrException.class);
    byte[] stable = Xdrs.toBytes(new WRITE3args(new nfs_fh3(new byte[4]), 0, 0, 0, ByteBuffer.allocate(0)));
    ByteBuffer.wrap(stable).putInt(4 + 4 + 8 + 4, 7);
    assertThatThrownBy(() -> Xdrs.fromBytes(stable, WRITE3args::decode)).isInstanceOf(XdrException.class);
  }

  @Test
  void namesMustBeUtf8() {
    byte[] bad = ByteBuffer.allocate(12).putInt(0).putInt(2).put((byte) 0xc3).put((byte) 0x28).array();
    assertThatThrownBy(() -> Xdrs.fromBytes(bad, diropargs3::decode)).isInstanceOf(XdrNameException.class);
  }

  @Test
  void timesConvertAndClamp() {
    java.time.Instant t = java.time.Instant.parse("2030-01-02T03:04:05.678901234Z");
    assertThat(nfstime3.of(t).toInstant()).isEqualTo(t);
    assertThat(nfstime3.of(java.time.Instant.ofEpochSecond(-5))).isEqualTo(new nfstime3(0, 0));
    // after 2038 the unsigned seconds still convert back
    java.time.Instant late = java.time.Instant.ofEpochSecond(3_000_000_000L);
    assertThat(nfstime3.of(late).toInstant()).isEqualTo(late);
  }
}
