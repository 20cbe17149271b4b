package io.ossgw.nfs.v4.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.stateid4;
import org.junit.jupiter.api.Test;

/**
 * Bad, old and special stateids against {@link StateTable} (RFC 8881 §8.2.1-8.2.4): unknown or foreign {@code other},
 * a stateid of another kind, seqids from the past (NFS4ERR_OLD_STATEID) and from the future (NFS4ERR_BAD_STATEID)
 * across the 0xffffffff -> 1 wrap, seqid 0 as "the current one", and per-client removal.
 */
class StateTableTest {
  static final class Open extends StateTable.State {
    Open(ClientRecord c) {
      super(c);
    }
  }

  static final class Lock extends StateTable.State {
    Lock(ClientRecord c) {
      super(c);
    }
  }

  private final StateTable t = new StateTable();
  private final ClientRecord a = client(0x1_0000_0001L);
  private final ClientRecord b = client(0x2_0000_0002L);

  private static ClientRecord client(long id) {
    return new ClientRecord(id, new byte[] {1}, new byte[8], "sys:0", 1, Long.MAX_VALUE);
  }

  private static void fails(Runnable r, int status) {
    assertThatThrownBy(r::run).isInstanceOfSatisfying(Nfs4Exception.class,
        e -> assertThat(e.status()).isEqualTo(status));
  }

  @Test
  void unknownForeignSpecialAndWrongKindStateidsAreBad() {
    Open o = new Open(a);
    stateid4 id = t.add(o);
    assertThat(id.seqid()).isEqualTo(1);
    assertThat(t.get(id, Open.class)).isSameAs(o);
    fails(() -> t.get(new stateid4(1, id.otherHi(), id.otherLo() + 1), Open.class), Nfs4.NFS4ERR_BAD_STATEID);
    // the same counter under another client's id: not this state
    fails(() -> t.get(new stateid4(1, (int) b.clientid(), id.otherLo()), Open.class), Nfs4.NFS4ERR_BAD_STATEID);
    fails(() -> t.get(id, Lock.class), Nfs4.NFS4ERR_BAD_STATEID);
    for (stateid4 special : new stateid4[] {stateid4.ANONYMOUS, stateid4.BYPASS, stateid4.CURRENT, stateid4.INVALID}) {
      fails(() -> t.get(special, Open.class), Nfs4.NFS4ERR_BAD_STATEID);
      assertThat(t.find(special)).isNull();
    }
    assertThat(t.find(id.withSeqid(77))).isSameAs(o); // TEST_STATEID/FREE_STATEID look by other only
  }

  @Test
  void olderSeqidsAreOldFutureOnesBadAndZeroIsCurrent() {
    Lock l = new Lock(a);
    stateid4 first = t.add(l);
    stateid4 second = t.bump(l);
    stateid4 third = t.bump(l);
    assertThat(third.seqid()).isEqualTo(3);
    assertThat(third.sameOther(first)).isTrue();
    fails(() -> t.get(first, Lock.class), Nfs4.NFS4ERR_OLD_STATEID);
    fails(() -> t.get(second, Lock.class), Nfs4.NFS4ERR_OLD_STATEID);
    fails(() -> t.get(third.withSeqid(4), Lock.class), Nfs4.NFS4ERR_BAD_STATEID);
    assertThat(t.get(third.withSeqid(0), Lock.class)).isSameAs(l);
    assertThat(t.get(third, Lock.class)).isSameAs(l);
  }

  @Test
  void seqidsCompareAsSerialNumbersAcrossTheWrap() {
    // seqids wrap from 0xffffffff to 1 (§8.2.2): reaching the wrap through bump() takes 4e9 calls, so this checks
    // the comparison the table makes: 0xffffffff is five increments behind 4 (old), 5 is ahead (bad)
    Lock l = new Lock(a);
    stateid4 id = t.add(l);
    stateid4 last = id;
    for (int i = 0; i < 3; i++) {
      last = t.bump(l);
    }
    assertThat(last.seqid()).isEqualTo(4);
    fails(() -> t.get(id.withSeqid(-1), Lock.class), Nfs4.NFS4ERR_OLD_STATEID);
    fails(() -> t.get(id.withSeqid(5), Lock.class), Nfs4.NFS4ERR_BAD_STATEID);
  }

  @Test
  void removedAndPerClientRemovedStatesAreGone() {
    Open ao = new Open(a);
    Lock al = new Lock(a);
    Open bo = new Open(b);
    stateid4 aoId = t.add(ao);
    stateid4 alId = t.add(al);
    stateid4 boId = t.add(bo);
    assertThat(t.count(Open.class)).isEqualTo(2);
    assertThat(t.ofClient(a)).containsExactlyInAnyOrder(ao, al);
    t.remove(al);
    fails(() -> t.get(alId, Lock.class), Nfs4.NFS4ERR_BAD_STATEID);
    assertThat(t.removeClient(a)).containsExactly(ao);
    fails(() -> t.get(aoId, Open.class), Nfs4.NFS4ERR_BAD_STATEID);
    assertThat(t.get(boId, Open.class)).isSameAs(bo);
    assertThat(t.count(Open.class)).isEqualTo(1);
    assertThat(t.count(Lock.class)).isZero();
  }
}
