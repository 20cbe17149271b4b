package io.ossgw.nfs;

import static io.ossgw.nfs.Nfs4LockClient.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.cluster.ClientRecordStore;
import io.ossgw.core.cluster.ClusterStoreException;
import io.ossgw.nfs.export.Export;
import io.ossgw.core.cluster.MemoryInodeNumberStore;
import io.ossgw.nfs.v4.state.ClientStore;
import io.ossgw.nfs.v4.xdr.*;
import io.ossgw.nfs.xdr.nfs_fh3;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A takeover in a cluster (issue 23 item 2) as the NFS server sees it: the client records and the handle table live
 * in the cluster's store (here its in-memory forms), no state directory; a server started after the former one went
 * (the node that took the lease over) loads the records and runs the grace period for the former server's clients,
 * who reclaim their opens (CLAIM_PREVIOUS) and locks (LOCK reclaim) with the handles they had, while a client the
 * former server did not know waits (NFS4ERR_GRACE) or is refused a reclaim (NFS4ERR_RECLAIM_BAD). Over TCP against
 * the server over an engine over the OSS emulator, on a clock the test moves.
 */
class Nfs4TakeoverTest {
  static final int BOTH = Nfs4.OPEN4_SHARE_ACCESS_BOTH;
  static final Duration GRACE = Duration.ofSeconds(60);

  @TempDir
  Path state;
  final TestClock clock = new TestClock();
  final ClientRecordStore.Memory records = new ClientRecordStore.Memory();
  final MemoryInodeNumberStore handles = new MemoryInodeNumberStore();
  NfsGateway gw;
  NfsClient v3;

  @AfterEach
  void stop() {
    if (v3 != null) {
      v3.close();
    }
    if (gw != null) {
      gw.close();
    }
  }

  private void start() {
    gw = NfsGateway.withServer(state, b -> b.nfsV41(true).v4Clock(clock).v4Lease(Duration.ofSeconds(300))
        .v4Grace(GRACE).stateDir(null).sharedHandles(handles).clientRecords(records));
    v3 = new NfsClient(gw.port(), 0, 0);
  }

  private byte[] file(String name) {
    nfs_fh3 root = v3.root("/" + NfsGateway.BUCKET);
    return v3.create(root, name, 0666).obj().data();
  }

  private static String hex(String owner) {
    return HexFormat.of().formatHex(owner.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void theNextHolderRunsGraceForTheFormerHoldersClientsFromTheStore() throws Exception {
    start();
    byte[] f = file("held");
    try (Nfs4LockClient c = new Nfs4LockClient(gw.port(), "host-a");
        Nfs4LockClient idle = new Nfs4LockClient(gw.port(), "host-idle")) {
      // written when CREATE_SESSION confirmed them, state or not
      assertThat(records.loadAll()).containsOnlyKeys(hex("host-a"), hex("host-idle"));
      stateid4 o = c.openFile(f, "p", BOTH);
      assertThat(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 100, o, "lo", false)).status()).isEqualTo(Nfs4.NFS4_OK);
      assertThat(Files.exists(state.resolve("nfs").resolve(ClientStore.FILE))).isFalse();

      clock.advance(Duration.ofSeconds(1)); // client ids carry the boot second
      gw.restart(); // the node that took the lease over: nothing local, everything from the store
      assertThat(gw.server.v4State().grace().active()).isTrue();
      c.reconnect();
      COMPOUND4res r = c.call(putfh(f), c.open("p", BOTH, true));
      assertThat(r.status()).as("CLAIM_PREVIOUS with the former holder's handle").isEqualTo(Nfs4.NFS4_OK);
      stateid4 o2 = openStateid(last(r));
      assertThat(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 100, o2, "lo", true)).status()).isEqualTo(Nfs4.NFS4_OK);
      try (Nfs4LockClient stranger = new Nfs4LockClient(gw.port(), "host-new")) {
        assertThat(stranger.call(putfh(f), stranger.open("p", BOTH, true)).status())
            .isEqualTo(Nfs4.NFS4ERR_RECLAIM_BAD);
        assertThat(stranger.call(putfh(f), stranger.open("p", BOTH, false)).status()).isEqualTo(Nfs4.NFS4ERR_GRACE);
        assertThat(c.call(reclaimComplete()).status()).isEqualTo(Nfs4.NFS4_OK);
        assertThat(gw.server.v4State().grace().active()).as("host-idle has not reclaimed yet").isTrue();
        idle.reconnect();
        assertThat(idle.call(reclaimComplete()).status()).isEqualTo(Nfs4.NFS4_OK);
        assertThat(gw.server.v4State().grace().active()).isFalse();
        stateid4 so = stranger.openFile(f, "p", BOTH);
        COMPOUND4res d = stranger.call(putfh(f), lockNew(Nfs4.READ_LT, 50, 1, so, "x", false));
        assertThat(d.status()).isEqualTo(Nfs4.NFS4ERR_DENIED); // the reclaimed lock holds
        assertThat(((LOCK4denied) last(d).resok()).owner().clientid()).isEqualTo(c.clientid);
      }
      assertThat(records.loadAll()).containsKeys(hex("host-a"), hex("host-idle"), hex("host-new"));
    }
  }

  /**
   * The former holder died before its first upload of a file a client had open (here: the object removed behind the
   * restart, as it never reached OSS): the reclaim creates the file again, empty, and the client's resent WRITEs and
   * COMMIT make it whole (the kernel client's EIO at fsync in the VM lane's failover before this).
   */
  @Test
  void aReclaimOfAFileTheFormerHolderNeverUploadedCreatesItForTheResentWrites() throws Exception {
    start();
    byte[] f = file("never-uploaded");
    try (Nfs4LockClient c = new Nfs4LockClient(gw.port(), "host-w")) {
      c.openFile(f, "p", BOTH);
      clock.advance(Duration.ofSeconds(1));
      gw.restart();
      gw.sdk.deleteObject(NfsGateway.BUCKET, "never-uploaded"); // what a killed holder leaves: no object at all
      v3.close();
      v3 = new NfsClient(gw.port(), 0, 0);
      c.reconnect();
      COMPOUND4res r = c.call(putfh(f), c.open("p", BOTH, true));
      assertThat(r.status()).as("CLAIM_PREVIOUS of a file OSS never had").isEqualTo(Nfs4.NFS4_OK);
      assertThat(c.call(reclaimComplete()).status()).isEqualTo(Nfs4.NFS4_OK);
      byte[] data = "resent after the verifier changed\n".getBytes(StandardCharsets.UTF_8);
      nfs_fh3 fh = new nfs_fh3(f);
      assertThat(v3.write(fh, 0, data, 0).status()).isEqualTo(io.ossgw.nfs.xdr.nfsstat3.NFS3_OK);
      assertThat(v3.commit(fh).status()).isEqualTo(io.ossgw.nfs.xdr.nfsstat3.NFS3_OK);
      assertThat(gw.object("never-uploaded")).isEqualTo(data);
    }
  }

  @Test
  void aFormerClientThatDoesNotComeBackLosesItsRecordWhenGraceEnds() throws Exception {
    start();
    byte[] f = file("left");
    try (Nfs4LockClient gone = new Nfs4LockClient(gw.port(), "host-gone")) {
      gone.openFile(f, "p", BOTH);
    }
    assertThat(records.loadAll()).containsOnlyKeys(hex("host-gone"));
    clock.advance(Duration.ofSeconds(1));
    gw.restart();
    assertThat(gw.server.v4State().grace().active()).isTrue();
    clock.advance(GRACE);
    assertThat(gw.server.v4State().grace().active()).isFalse();
    assertThat(records.loadAll()).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    gw.restart(); // nobody to wait for
    assertThat(gw.server.v4State().grace().active()).isFalse();
  }

  @Test
  void aServerWhoseStoreCannotBeReadDoesNotStart() throws Exception {
    start();
    ClientRecordStore down = new ClientRecordStore() {
      @Override
      public void put(String clientId, byte[] record) {}

      @Override
      public void remove(String clientId) {}

      @Override
      public java.util.Map<String, byte[]> loadAll() {
        throw new ClusterStoreException(ClusterStoreException.Kind.UNREACHABLE, "store down (test)", null);
      }
    };
    NfsServer s = NfsServer.builder().bind("127.0.0.1").port(0).nfsV41(true).clientRecords(down)
        .sharedHandles(handles).export(Export.builder("/other", gw.engine.fileSystem()).build()).build();
    // serving without knowing who may reclaim would give the former holder's locks away: no start at all
    assertThatThrownBy(s::start).isInstanceOf(ClusterStoreException.class);
    assertThat(s.port()).isEqualTo(-1);
    s.stop();
  }

  @Test
  void aClientThatLeavesRemovesItsRecord() throws Exception {
    start();
    try (Nfs4LockClient c = new Nfs4LockClient(gw.port(), "host-l")) {
      assertThat(records.loadAll()).containsOnlyKeys(hex("host-l"));
      assertThat(c.raw(op(Nfs4.OP_DESTROY_SESSION, new DESTROY_SESSION4args(c.session))).status())
          .isEqualTo(Nfs4.NFS4_OK);
      assertThat(c.raw(op(Nfs4.OP_DESTROY_CLIENTID, new DESTROY_CLIENTID4args(c.clientid))).status())
          .isEqualTo(Nfs4.NFS4_OK);
      assertThat(records.loadAll()).isEmpty();
    }
  }
}
