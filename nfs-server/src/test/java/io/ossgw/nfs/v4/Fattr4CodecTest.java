package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.xdr.Nfs4.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.vfs.SetAttr;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.bitmap4;
import io.ossgw.nfs.v4.xdr.fattr4;
import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrWriter;
import io.ossgw.nfs.xdr.Xdrs;
import java.time.Instant;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The fattr4 codec without a server: bitmap4 round trips and bounds, and settable attributes decoded from a client's
 * encoding into {@link Sattr4} and the engine's {@link SetAttr}, with the errors of RFC 8881 §18.30.3.
 */
class Fattr4CodecTest {
  static fattr4 f(bitmap4 m, Consumer<XdrWriter> vals) {
    return new fattr4(m, Xdrs.toBytes(vals::accept));
  }

  static int status(Runnable r) {
    try {
      r.run();
    } catch (Nfs4Exception e) {
      return e.status();
    }
    throw new AssertionError("no error");
  }

  @Test
  void bitmapsRoundTripAndDropTrailingZeroWords() {
    bitmap4 b = bitmap4.of(FATTR4_TYPE, FATTR4_MODE, FATTR4_SUPPATTR_EXCLCREAT);
    assertThat(b.words()).containsExactly(1 << FATTR4_TYPE, 1 << (FATTR4_MODE - 32), 1 << (FATTR4_SUPPATTR_EXCLCREAT - 64));
    assertThat(Xdrs.fromBytes(Xdrs.toBytes(b), bitmap4::decode)).isEqualTo(b);
    assertThat(bitmap4.ofWords(2, 0, 0)).isEqualTo(bitmap4.of(FATTR4_TYPE));
    assertThat(b.next(0)).isEqualTo(FATTR4_TYPE);
    assertThat(b.next(FATTR4_TYPE + 1)).isEqualTo(FATTR4_MODE);
    assertThat(b.next(FATTR4_SUPPATTR_EXCLCREAT + 1)).isEqualTo(-1);
    assertThat(b.minus(bitmap4.of(FATTR4_MODE))).isEqualTo(bitmap4.of(FATTR4_TYPE, FATTR4_SUPPATTR_EXCLCREAT));
    byte[] huge = Xdrs.toBytes(w -> w.int32(ARRAY_LIMIT + 1));
    assertThatThrownBy(() -> Xdrs.fromBytes(huge, bitmap4::decode)).isInstanceOf(XdrException.class);
    fattr4 f = f(b, w -> w.int32(7));
    assertThat(Xdrs.fromBytes(Xdrs.toBytes(f), fattr4::decode).attrVals()).isEqualTo(f.attrVals());
  }

  @Test
  void settableAttributesDecodeInAttributeOrder() {
    bitmap4 m = bitmap4.of(FATTR4_SIZE, FATTR4_MODE, FATTR4_OWNER, FATTR4_OWNER_GROUP, FATTR4_TIME_ACCESS_SET,
        FATTR4_TIME_MODIFY_SET);
    Sattr4 s = Fattr4.decodeSet(f(m, w -> w.int64(42).int32(0104755).string("1000").string("4294967295")
        .int32(SET_TO_CLIENT_TIME4).int64(1_600_000_000L).int32(5).int32(SET_TO_SERVER_TIME4)));
    assertThat(s.size()).isEqualTo(42L);
    assertThat(s.mode()).isEqualTo(04755); // type bits masked off
    assertThat(s.uid()).isEqualTo(1000);
    assertThat(s.gid()).isEqualTo(-1);
    assertThat(s.atime()).isEqualTo(Instant.ofEpochSecond(1_600_000_000L, 5));
    assertThat(s.attrsset()).isEqualTo(m);
    Instant now = Instant.parse("2026-11-25T00:00:00Z");
    SetAttr sa = s.toSetAttr(now);
    assertThat(sa.atime()).isEqualTo(Instant.ofEpochSecond(1_600_000_000L, 5));
    assertThat(sa.mtime()).isEqualTo(now);
    assertThat(Fattr4.decodeSet(f(bitmap4.EMPTY, w -> { })).isEmpty()).isTrue();
  }

  @Test
  void decodeSetErrors() {
    assertThat(status(() -> Fattr4.decodeSet(f(bitmap4.of(FATTR4_ACL), w -> w.int32(0)))))
        .isEqualTo(NFS4ERR_ATTRNOTSUPP);
    assertThat(status(() -> Fattr4.decodeSet(f(bitmap4.of(FATTR4_FILEID), w -> w.int64(1)))))
        .isEqualTo(NFS4ERR_INVAL);
    assertThat(status(() -> Fattr4.decodeSet(f(bitmap4.of(FATTR4_OWNER), w -> w.string("root")))))
        .isEqualTo(NFS4ERR_BADOWNER);
    assertThat(status(() -> Fattr4.decodeSet(f(bitmap4.of(FATTR4_OWNER), w -> w.string("4294967296")))))
        .isEqualTo(NFS4ERR_BADOWNER);
    assertThat(status(() -> Fattr4.decodeSet(f(bitmap4.of(FATTR4_OWNER), w -> w.string("")))))
        .isEqualTo(NFS4ERR_BADOWNER);
    assertThat(status(() -> Fattr4.decodeSet(f(bitmap4.of(FATTR4_TIME_MODIFY_SET),
        w -> w.int32(SET_TO_CLIENT_TIME4).int64(0).int32(1_000_000_000))))).isEqualTo(NFS4ERR_INVAL);
    assertThat(status(() -> Fattr4.decodeSet(f(bitmap4.of(FATTR4_TIME_MODIFY_SET), w -> w.int32(7)))))
        .isEqualTo(NFS4ERR_BADXDR);
    assertThat(status(() -> Fattr4.decodeSet(f(bitmap4.of(FATTR4_SIZE), w -> w.int32(1)))))
        .isEqualTo(NFS4ERR_BADXDR);
    assertThat(status(() -> Fattr4.decodeSet(f(bitmap4.of(FATTR4_SIZE), w -> w.int64(1).int32(0)))))
        .isEqualTo(NFS4ERR_BADXDR);
    assertThat(status(() -> Fattr4.decodeSet(f(bitmap4.of(FATTR4_SIZE), w -> w.int64(-1)))))
        .isEqualTo(NFS4ERR_FBIG);
  }

  @Test
  void changeGrowsWithTimeAndDiffersWithSizeWithinAMillisecond() {
    Instant t = Instant.parse("2026-11-25T12:00:00.123Z");
    io.ossgw.core.vfs.FileAttr a = new io.ossgw.core.vfs.FileAttr(2, io.ossgw.core.vfs.FileType.REGULAR, 0644, 0, 0,
        10, t, t, t, null);
    assertThat(Fattr4.change(a.withSize(11))).isNotEqualTo(Fattr4.change(a));
    io.ossgw.core.vfs.FileAttr later = new io.ossgw.core.vfs.FileAttr(2, io.ossgw.core.vfs.FileType.REGULAR, 0644, 0,
        0, 999_999, t, t.plusMillis(1), t.plusMillis(1), null);
    assertThat(Fattr4.change(later)).isGreaterThan(Fattr4.change(a.withSize(11)));
  }
}
