package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Client.*;
import static io.ossgw.nfs.v4.xdr.Nfs4.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.engine.Engine;
import io.ossgw.core.vfs.Caller;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.Squash;
import io.ossgw.nfs.v4.xdr.COMPOUND4res;
import io.ossgw.nfs.v4.xdr.GETFH4resok;
import io.ossgw.nfs.v4.xdr.SECINFO4resok;
import io.ossgw.nfs.v4.xdr.nfs_argop4;
import io.ossgw.nfs.xdr.LOOKUP3args;
import io.ossgw.nfs.xdr.LOOKUP3res;
import io.ossgw.nfs.xdr.Nfs3;
import io.ossgw.nfs.xdr.diropargs3;
import io.ossgw.nfs.xdr.dirpath;
import io.ossgw.nfs.xdr.mountres3;
import io.ossgw.nfs.xdr.nfs_fh3;
import io.ossgw.nfs.xdr.Xdrs;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.dcache.oncrpc4j.rpc.OncRpcClient;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeNone;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeUnix;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcTransport;
import org.dcache.oncrpc4j.rpc.net.IpProtocolType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PUTROOTFH, PUTPUBFH, PUTFH, GETFH, SAVEFH, RESTOREFH, LOOKUP, LOOKUPP and SECINFO over TCP against an NfsServer
 * with NFSv4.1 on, over the engine and the OSS emulator: the pseudo file system (RFC 8881 §7.3) and its CIDR
 * filtering, handles equal to NFSv3's, and each operation's errors (§18.x.3).
 */
class FilehandleOpsTest {
  @TempDir
  static Path state;
  static V4Gateway gw;
  static V4Client c;

  static List<Export> exports(Engine e) {
    return List.of(Export.builder("/" + V4Gateway.BUCKET, e.fileSystem()).build(),
        Export.builder("/deep/er/x", e.fileSystem()).build(),
        Export.builder("/hidden", e.fileSystem()).clients(List.of("10.0.0.0/8")).build(),
        Export.builder("/open", e.fileSystem()).squash(Squash.ALL_SQUASH).build());
  }

  @BeforeAll
  static void start() {
    gw = new V4Gateway(state, FilehandleOpsTest::exports);
    gw.put("a.txt", "hello");
    gw.put("dir/b.txt", "b");
    gw.engine.fileSystem().symlink("a.txt", "/link", Caller.ROOT);
    c = new V4Client(gw.port(), 1000, 1000);
  }

  @AfterAll
  static void stop() {
    c.close();
    gw.close();
  }

  static byte[] fh(COMPOUND4res r, int i) {
    return ((GETFH4resok) body(r, i)).object().data();
  }

  static int[] statuses(COMPOUND4res r) {
    return V4Wire.statuses(r);
  }

  /** The status of a compound of {@code ops}, which must stop at its last operation. */
  static int fails(nfs_argop4... ops) {
    COMPOUND4res r = c.call(ops);
    assertThat(r.resarray()).as(V4Wire.show(r)).hasSize(ops.length);
    return r.status();
  }

  @Test
  void thePseudoRootIsAReadOnlyDirectoryOfItsOwnFileSystem() {
    COMPOUND4res r = c.call(putrootfh(), getfh(), getattr(FATTR4_TYPE, FATTR4_FSID, FATTR4_MODE, FATTR4_FILEID,
        FATTR4_FH_EXPIRE_TYPE, FATTR4_FILEHANDLE, FATTR4_OWNER));
    assertThat(r.status()).isEqualTo(NFS4_OK);
    Map<Integer, Object> a = Attr4Values.of(r, 2);
    assertThat(a.get(FATTR4_TYPE)).isEqualTo(NF4DIR);
    assertThat((long[]) a.get(FATTR4_FSID)).containsExactly(0, 1);
    assertThat(a.get(FATTR4_MODE)).isEqualTo(0555);
    assertThat(a.get(FATTR4_FH_EXPIRE_TYPE)).isEqualTo(FH4_PERSISTENT);
    assertThat((byte[]) a.get(FATTR4_FILEHANDLE)).isEqualTo(fh(r, 1)).hasSize(V4Handles.PSEUDO_LENGTH);
    assertThat(a.get(FATTR4_OWNER)).isEqualTo("0");
    COMPOUND4res pub = c.call(putpubfh(), getfh());
    assertThat(fh(pub, 1)).isEqualTo(fh(r, 1));
  }

  @Test
  void lookupEntersAnExportAndLookuppComesBack() {
    COMPOUND4res r = c.call(putrootfh(), getfh(), lookup(V4Gateway.BUCKET), getfh(),
        getattr(FATTR4_TYPE, FATTR4_FSID, FATTR4_MOUNTED_ON_FILEID, FATTR4_FILEID), lookupp(), getfh(), lookupp());
    assertThat(statuses(r)).containsExactly(NFS4_OK, NFS4_OK, NFS4_OK, NFS4_OK, NFS4_OK, NFS4_OK, NFS4_OK,
        NFS4ERR_NOENT);
    Map<Integer, Object> a = Attr4Values.of(r, 4);
    long exportId = Export.idOf("/" + V4Gateway.BUCKET) & 0xffffffffL;
    assertThat((long[]) a.get(FATTR4_FSID)).containsExactly(exportId, 0);
    assertThat(a.get(FATTR4_MOUNTED_ON_FILEID)).isEqualTo(PseudoFs.fileidOf("/" + V4Gateway.BUCKET))
        .isNotEqualTo(a.get(FATTR4_FILEID));
    assertThat(fh(r, 6)).isEqualTo(fh(r, 1)); // LOOKUPP at the export's root: the pseudo root
  }

  @Test
  void deeperExportsGetIntermediatePseudoDirectoriesAndHiddenOnesAreNotThere() {
    COMPOUND4res r = c.call(putrootfh(), lookup("deep"), getattr(FATTR4_TYPE, FATTR4_FSID), lookup("er"),
        lookup("x"), getattr(FATTR4_FSID), lookupp(), lookupp(), lookupp(), getfh());
    assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(NFS4_OK);
    assertThat((long[]) Attr4Values.of(r, 2).get(FATTR4_FSID)).containsExactly(0, 1);
    assertThat((long[]) Attr4Values.of(r, 5).get(FATTR4_FSID)).containsExactly(Export.idOf("/deep/er/x") & 0xffffffffL, 0);
    assertThat(fh(r, 9)).isEqualTo(fh(c.call(putrootfh(), getfh()), 1));
    // 127.0.0.1 is outside /hidden's 10.0.0.0/8: not listed for it, and a lookup by name is refused
    assertThat(fails(putrootfh(), lookup("hidden"))).isEqualTo(NFS4ERR_ACCESS);
    assertThat(fails(putrootfh(), lookup("nothing"))).isEqualTo(NFS4ERR_NOENT);
  }

  @Test
  void getfhOfAnObjectIsItsNfsv3Handle() throws Exception {
    COMPOUND4res r = c.call(putrootfh(), lookup(V4Gateway.BUCKET), getfh(), lookup("dir"), lookup("b.txt"), getfh());
    assertThat(r.status()).isEqualTo(NFS4_OK);
    try (OncRpcClient rpc = new OncRpcClient(InetAddress.getLoopbackAddress(), IpProtocolType.TCP, gw.port())) {
      RpcTransport t = rpc.connect(10, TimeUnit.SECONDS);
      RpcAuthTypeUnix auth = new RpcAuthTypeUnix(1000, 1000, new int[0], 0, "v3");
      Xdrs.Decoder<mountres3> m = Xdrs.decoder(mountres3::decode);
      new RpcCall(Nfs3.MOUNT_PROGRAM, Nfs3.VERSION, auth, t).call(Nfs3.MOUNTPROC3_MNT,
          Xdrs.encoder(w -> dirpath.encode(w, "/" + V4Gateway.BUCKET)), m, 10, TimeUnit.SECONDS, auth);
      assertThat(m.value().fhandle().data()).isEqualTo(fh(r, 2));
      nfs_fh3 dir = lookup3(t, auth, m.value().fhandle(), "dir");
      assertThat(lookup3(t, auth, dir, "b.txt").data()).isEqualTo(fh(r, 5));
    }
  }

  private static nfs_fh3 lookup3(RpcTransport t, RpcAuthTypeUnix auth, nfs_fh3 dir, String name) throws Exception {
    Xdrs.Decoder<LOOKUP3res> l = Xdrs.decoder(LOOKUP3res::decode);
    new RpcCall(Nfs3.NFS_PROGRAM, Nfs3.VERSION, auth, t).call(Nfs3.NFSPROC3_LOOKUP,
        Xdrs.encoder(new LOOKUP3args(new diropargs3(dir, name))), l, 10, TimeUnit.SECONDS, auth);
    assertThat(l.value().status()).isZero();
    return l.value().object();
  }

  @Test
  void saveAndRestore() {
    COMPOUND4res r = c.call(putrootfh(), savefh(), lookup(V4Gateway.BUCKET), getfh(), restorefh(), getfh());
    assertThat(r.status()).isEqualTo(NFS4_OK);
    assertThat(fh(r, 5)).isEqualTo(fh(c.call(putrootfh(), getfh()), 1));
    assertThat(fails(restorefh())).isEqualTo(NFS4ERR_RESTOREFH);
    assertThat(fails(putrootfh(), restorefh())).isEqualTo(NFS4ERR_RESTOREFH);
    assertThat(fails(savefh())).isEqualTo(NFS4ERR_NOFILEHANDLE);
  }

  @Test
  void operationsWithoutACurrentFilehandle() {
    for (nfs_argop4 op : List.of(getfh(), lookup("a"), lookupp(), getattr(FATTR4_SIZE), access(1),
        secinfo("a"), secinfoNoName(SECINFO_STYLE4_CURRENT_FH))) {
      assertThat(fails(op)).as("op %d", op.op()).isEqualTo(NFS4ERR_NOFILEHANDLE);
    }
  }

  @Test
  void lookupErrors() {
    nfs_argop4 root = putrootfh();
    nfs_argop4 bucket = lookup(V4Gateway.BUCKET);
    assertThat(fails(root, bucket, lookup(""))).isEqualTo(NFS4ERR_INVAL);
    assertThat(fails(root, bucket, lookup("."))).isEqualTo(NFS4ERR_BADNAME);
    assertThat(fails(root, bucket, lookup(".."))).isEqualTo(NFS4ERR_BADNAME);
    assertThat(fails(root, bucket, lookup("a/b"))).isEqualTo(NFS4ERR_BADNAME);
    assertThat(fails(root, bucket, lookup("n".repeat(256)))).isEqualTo(NFS4ERR_NAMETOOLONG);
    assertThat(fails(root, bucket, lookup(new byte[] {(byte) 0xff, 'a'}))).isEqualTo(NFS4ERR_INVAL);
    assertThat(fails(root, bucket, lookup("missing"))).isEqualTo(NFS4ERR_NOENT);
    assertThat(fails(root, bucket, lookup("a.txt"), lookup("x"))).isEqualTo(NFS4ERR_NOTDIR);
    assertThat(fails(root, bucket, lookup("link"), lookup("x"))).isEqualTo(NFS4ERR_SYMLINK);
    assertThat(fails(root, bucket, lookup("a.txt"), lookupp())).isEqualTo(NFS4ERR_NOTDIR);
    assertThat(fails(root, bucket, lookup("link"), lookupp())).isEqualTo(NFS4ERR_SYMLINK);
    assertThat(fails(root, lookupp())).isEqualTo(NFS4ERR_NOENT);
    // 255 bytes is a legal name that simply does not exist
    assertThat(fails(root, bucket, lookup("n".repeat(255)))).isEqualTo(NFS4ERR_NOENT);
  }

  @Test
  void putfhErrors() {
    assertThat(fails(putfh(new byte[] {1, 2, 3}))).isEqualTo(NFS4ERR_BADHANDLE);
    byte[] v3like = new byte[25];
    v3like[0] = 1;
    assertThat(fails(putfh(v3like))).isEqualTo(NFS4ERR_BADHANDLE); // MAC does not match
    byte[] pseudo = new byte[V4Handles.PSEUDO_LENGTH];
    pseudo[0] = (byte) 0x80;
    assertThat(fails(putfh(pseudo))).isEqualTo(NFS4ERR_STALE); // no such pseudo node
    assertThat(fails(putfh(new byte[NFS4_FHSIZE + 4]))).isEqualTo(NFS4ERR_BADXDR);
  }

  @Test
  void secinfoGivesTheFlavorsV3Accepts() {
    COMPOUND4res r = c.call(putrootfh(), secinfo(V4Gateway.BUCKET));
    assertThat(((SECINFO4resok) body(r, 1)).flavors()).containsExactly(AUTH_SYS);
    r = c.call(putrootfh(), secinfo("open"));
    assertThat(((SECINFO4resok) body(r, 1)).flavors()).containsExactly(AUTH_SYS, AUTH_NONE);
    r = c.call(putrootfh(), secinfo("deep"));
    assertThat(((SECINFO4resok) body(r, 1)).flavors()).containsExactly(AUTH_SYS, AUTH_NONE);
    // the current filehandle is consumed
    assertThat(fails(putrootfh(), secinfo(V4Gateway.BUCKET), getfh())).isEqualTo(NFS4ERR_NOFILEHANDLE);
    assertThat(fails(putrootfh(), secinfo("hidden"))).isEqualTo(NFS4ERR_ACCESS);
    assertThat(fails(putrootfh(), lookup(V4Gateway.BUCKET), secinfo("missing"))).isEqualTo(NFS4ERR_NOENT);
    r = c.call(putrootfh(), lookup(V4Gateway.BUCKET), secinfoNoName(SECINFO_STYLE4_CURRENT_FH));
    assertThat(((SECINFO4resok) body(r, 2)).flavors()).containsExactly(AUTH_SYS);
    r = c.call(putrootfh(), lookup(V4Gateway.BUCKET), secinfoNoName(SECINFO_STYLE4_PARENT));
    assertThat(((SECINFO4resok) body(r, 2)).flavors()).containsExactly(AUTH_SYS, AUTH_NONE);
    assertThat(fails(putrootfh(), secinfoNoName(SECINFO_STYLE4_PARENT))).isEqualTo(NFS4ERR_NOENT);
  }

  @Test
  void authNoneEntersOnlyAllSquashExports() {
    try {
      c.as(new RpcAuthTypeNone());
      assertThat(fails(putrootfh(), lookup(V4Gateway.BUCKET))).isEqualTo(NFS4ERR_WRONGSEC);
      assertThat(c.call(putrootfh(), lookup("open"), getattr(FATTR4_TYPE)).status()).isEqualTo(NFS4_OK);
    } finally {
      c.as(1000, 1000);
    }
  }

  @Test
  void aNameWithNonAsciiUtf8IsLookedUp() {
    gw.put("é.txt", "x");
    COMPOUND4res r = c.call(putrootfh(), lookup(V4Gateway.BUCKET),
        lookup("é.txt".getBytes(StandardCharsets.UTF_8)), getattr(FATTR4_SIZE));
    assertThat(r.status()).isEqualTo(NFS4_OK);
    assertThat(Attr4Values.of(r, 3).get(FATTR4_SIZE)).isEqualTo(1L);
  }
}
