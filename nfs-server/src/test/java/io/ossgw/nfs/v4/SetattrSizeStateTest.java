package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Client.*;
import static io.ossgw.nfs.v4.xdr.Nfs4.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.v4.xdr.COMPOUND4res;
import io.ossgw.nfs.v4.xdr.bitmap4;
import io.ossgw.nfs.v4.xdr.fattr4;
import io.ossgw.nfs.v4.xdr.stateid4;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SETATTR of a size takes its stateid as WRITE does (RFC 8881 §18.30.3): an open without WRITE access is
 * NFS4ERR_OPENMODE, another client's stateid NFS4ERR_BAD_STATEID, the anonymous stateid meets DENY_WRITE
 * (NFS4ERR_LOCKED) and the grace period after a restart (NFS4ERR_GRACE); the current stateid of the compound works.
 */
class SetattrSizeStateTest {
  @TempDir
  Path state;

  static fattr4 size(long n) {
    return fattr(bitmap4.of(FATTR4_SIZE), w -> w.int64(n));
  }

  static int last(V4Client c, io.ossgw.nfs.v4.xdr.nfs_argop4... ops) {
    COMPOUND4res r = c.call(ops);
    assertThat(r.resarray()).as(V4Wire.show(r)).hasSize(ops.length);
    return r.status();
  }

  @Test
  void theStateidOfASizeChange() {
    try (V4Gateway gw = V4Gateway.simple(state)) {
      byte[] dir;
      try (V4Client a = new V4Client(gw.port(), 1000, 1000); V4Client b = new V4Client(gw.port(), 1000, 1000)) {
        COMPOUND4res r = a.call(putrootfh(), lookup(V4Gateway.BUCKET), getfh(),
            Open4Ops.create("o1", "st.txt", UNCHECKED4, Open4Ops.READ, OPEN4_SHARE_DENY_WRITE), getfh());
        assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(NFS4_OK);
        dir = FilehandleOpsTest.fh(r, 2);
        byte[] file = FilehandleOpsTest.fh(r, 4);
        stateid4 readOnly = Open4Ops.opened(r, 3).stateid();
        assertThat(last(a, putfh(file), setattr(readOnly, size(0)))).isEqualTo(NFS4ERR_OPENMODE);
        assertThat(last(a, putfh(file), setattr(stateid4.ANONYMOUS, size(0)))).isEqualTo(NFS4ERR_LOCKED);
        assertThat(last(b, putfh(file), setattr(readOnly, size(0)))).isEqualTo(NFS4ERR_BAD_STATEID);
        assertThat(last(a, putfh(file), setattr(stateid4.CURRENT, size(0)))).isEqualTo(NFS4ERR_BAD_STATEID);
        assertThat(last(a, putfh(file), setattr(readOnly, Open4Ops.mode(0600)))).isEqualTo(NFS4_OK); // no size
        assertThat(last(a, putfh(file), Open4Ops.close(readOnly))).isEqualTo(NFS4_OK);
        // the current stateid: the open's, set by OPEN earlier in the compound
        r = a.call(putfh(dir), Open4Ops.open("o1", "st.txt", Open4Ops.BOTH, OPEN4_SHARE_DENY_NONE),
            setattr(stateid4.CURRENT, size(3)), getattr(FATTR4_SIZE));
        assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(NFS4_OK);
        assertThat(Attr4Values.of(r, 3).get(FATTR4_SIZE)).isEqualTo(3L);
        assertThat(last(b, putfh(file), setattr(stateid4.ANONYMOUS, size(1)))).isEqualTo(NFS4_OK);
      }
      // a restart with a client known from before: the grace period holds size changes of special stateids
      gw.restart(e -> List.of(Export.builder("/" + V4Gateway.BUCKET, e.fileSystem()).build()));
      try (V4Client c = new V4Client(gw.port(), 1000, 1000)) {
        assertThat(last(c, putfh(dir), lookup("st.txt"), setattr(stateid4.ANONYMOUS, size(0))))
            .isEqualTo(NFS4ERR_GRACE);
        assertThat(last(c, putfh(dir), lookup("st.txt"), setattr(stateid4.ANONYMOUS, Open4Ops.mode(0644))))
            .isEqualTo(NFS4_OK);
      }
    }
  }
}
