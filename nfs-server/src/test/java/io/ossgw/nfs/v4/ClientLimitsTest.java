package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Wire.owner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.nfs.v4.state.ClientTable;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.state.V4Limits;
import io.ossgw.nfs.v4.xdr.CREATE_SESSION4args;
import io.ossgw.nfs.v4.xdr.CREATE_SESSION4resok;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.channel_attrs4;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What client records and sessions are charged against the NFSv4.1 state budget ({@link V4Limits#stateBytes},
 * shared per client address), and what happens at the edges: EXCHANGE_ID evicts the address's own oldest unconfirmed
 * records, then anyone's when the server is full, and answers NFS4ERR_DELAY when only confirmed ones are left;
 * CREATE_SESSION reserves its whole reply cache, grants fewer slots when short, NFS4ERR_DELAY when not one fits; all
 * of it goes back when sessions and clients go (RFC 8881 §18.35, §18.36.3).
 */
class ClientLimitsTest {
  /** 1 MiB of state (256 KiB per address), 40 client records (10 per address), 1 KiB cached per slot. */
  static final V4Limits LIMITS = new V4Limits(Duration.ofSeconds(90), 64, 32, 1 << 20, 1 << 20, 1024, 128, 40, 16,
      1 << 20);
  static final int PER_ADDRESS = 10;

  final V4Wire.TestClock clock = new V4Wire.TestClock();
  final ClientTable table = new ClientTable(clock, LIMITS);

  static InetAddress address(int last) {
    try {
      return InetAddress.getByAddress(new byte[] {10, 0, 0, (byte) last});
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  long exchange(String name, InetAddress from) {
    return table.exchangeId(owner(name, 1), 0, "sys:0", from).clientid();
  }

  CREATE_SESSION4resok session(long clientid, int slots, int cached) {
    return table.createSession(new CREATE_SESSION4args(clientid, 1, 0,
        new channel_attrs4(0, 1 << 20, 1 << 20, cached, 16, slots, null), V4Wire.attrs(1, 0), 0x40000000, 1),
        "sys:0");
  }

  static void delay(Runnable r) {
    assertThatThrownBy(r::run).isInstanceOfSatisfying(Nfs4Exception.class,
        e -> assertThat(e.status()).isEqualTo(Nfs4.NFS4ERR_DELAY));
  }

  @Test
  void aFloodOfExchangeIdsFromOneAddressOnlyReplacesItsOwnUnconfirmedRecords() {
    InetAddress attacker = address(2);
    InetAddress other = address(3);
    long legit = exchange("legit", other);
    for (int i = 0; i < 1000; i++) {
      exchange("flood-" + i, attacker);
    }
    assertThat(table.clients(attacker)).isEqualTo(PER_ADDRESS);
    assertThat(table.evicted()).isEqualTo(1000 - PER_ADDRESS);
    // the other address's unconfirmed record survived the flood and is confirmed now
    assertThat(session(legit, 4, 1024).foreChanAttrs().maxrequests()).isEqualTo(4);
    // the newest of the flood are the ones kept
    long newest = exchange("flood-999", attacker); // the same owner and verifier again: a new unconfirmed record
    assertThat(session(newest, 1, 0).foreChanAttrs().maxrequests()).isEqualTo(1);
    assertThat(table.clients()).isEqualTo(PER_ADDRESS + 1);
  }

  @Test
  void confirmedRecordsAreNeverEvictedAndTheAddressThenGetsDelay() {
    InetAddress a = address(2);
    for (int i = 0; i < PER_ADDRESS; i++) {
      session(exchange("c-" + i, a), 1, 0);
    }
    delay(() -> exchange("one-more", a));
    assertThat(table.clients(a)).isEqualTo(PER_ADDRESS);
    // another address is not affected
    session(exchange("other", address(3)), 1, 0);
  }

  @Test
  void whenTheServerIsFullTheOldestUnconfirmedRecordOfAnyAddressGoes() {
    for (int a = 1; a <= 4; a++) { // 4 addresses at their share fill the 40 records
      for (int i = 0; i < PER_ADDRESS; i++) {
        exchange("r-" + a + "-" + i, address(a));
      }
    }
    assertThat(table.clients()).isEqualTo(40);
    exchange("fifth", address(5));
    assertThat(table.clients()).isEqualTo(40);
    assertThat(table.clients(address(1))).isEqualTo(PER_ADDRESS - 1); // its r-1-0 was the oldest
    assertThat(table.clients(address(5))).isEqualTo(1);
  }

  @Test
  void aSessionReservesItsReplyCacheAndGetsFewerSlotsOrDelayWhenTheShareIsShort() {
    InetAddress a = address(2);
    long id = exchange("big", a);
    long before = table.stateBytes(a);
    // 64 slots of 1 KiB (cached asked for 64 KiB, granted 1 KiB): 64 * (1024 + 64) + 1024
    CREATE_SESSION4resok s = session(id, 64, 64 << 10);
    assertThat(s.foreChanAttrs().maxresponsesizeCached()).isEqualTo(1024);
    assertThat(s.foreChanAttrs().maxrequests()).isEqualTo(64);
    assertThat(table.stateBytes(a) - before).isEqualTo(64 * (1024 + 64) + 1024);
    // the address's share (256 KiB) holds three such sessions and part of a fourth
    int granted = 64;
    int sessions = 1;
    for (int i = 0; granted == 64 && i < 10; i++) {
      granted = session(exchange("more-" + i, a), 64, 1024).foreChanAttrs().maxrequests();
      sessions++;
    }
    assertThat(sessions).isEqualTo(4);
    assertThat(granted).isBetween(1, 63);
    assertThat(table.stateBytes(a)).isLessThanOrEqualTo(LIMITS.perAddressBytes());
    delay(() -> session(exchange("last", a), 1, 1024)); // no room for the record or, else, for one slot
    // another address has its own share
    assertThat(session(exchange("other", address(3)), 64, 1024).foreChanAttrs().maxrequests()).isEqualTo(64);
  }

  @Test
  void everythingChargedGoesBackWithTheSessionsAndClients() {
    InetAddress a = address(2);
    long id = exchange("c", a);
    CREATE_SESSION4resok s = session(id, 8, 1024);
    assertThat(table.stateBytes()).isPositive();
    table.destroySession(s.sessionid());
    table.destroyClientId(id);
    assertThat(table.stateBytes()).isZero();
    assertThat(table.clients(a)).isZero();
    // and with an expired lease
    session(exchange("d", a), 8, 1024);
    exchange("e", a);
    clock.advance(LIMITS.lease().plusSeconds(1));
    assertThat(table.reap()).isEqualTo(2);
    assertThat(table.stateBytes()).isZero();
  }

  @Test
  void theServerLimitsComeFromTheHeap() {
    assertThat(V4Limits.forHeap(128L << 20).stateBytes()).isEqualTo(16L << 20); // memory_limit=256
    assertThat(V4Limits.forHeap(128L << 20).perAddressBytes()).isEqualTo(4L << 20);
    assertThat(V4Limits.forHeap(16L << 20).stateBytes()).isEqualTo(4L << 20);
    assertThat(V4Limits.forHeap(64L << 30).stateBytes()).isEqualTo(256L << 20);
    assertThat(V4Limits.DEFAULT.maxClientsPerAddress()).isEqualTo(2500);
    assertThatThrownBy(() -> V4Limits.DEFAULT.withStateBytes(8 << 10)).isInstanceOf(IllegalArgumentException.class);
  }
}
