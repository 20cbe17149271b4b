package io.ossgw.nfs.v4.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.nfs.v4.xdr.Nfs4;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ClientStore} (the client owners kept in the state directory across restarts) and {@link Grace} built from
 * it: who may reclaim, when the period ends (time, every known client's RECLAIM_COMPLETE), what is left in the file.
 */
class ClientStoreTest {
  @TempDir
  Path dir;

  private static final class TestClock extends Clock {
    Instant now = Instant.parse("2026-11-25T12:00:00Z");

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  private static long ids;

  private static ClientRecord client(String owner) {
    return new ClientRecord(++ids, owner.getBytes(StandardCharsets.UTF_8), new byte[8], "sys:0", 1, 0);
  }

  private static ByteBuffer key(String owner) {
    return ByteBuffer.wrap(owner.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void ownersWithStateSurviveAReopenAndDroppedOnesDoNot() {
    ClientStore s = ClientStore.open(dir);
    assertThat(s.loaded()).isEmpty();
    assertThat(dir.resolve(ClientStore.FILE)).doesNotExist(); // nothing written before a client has state
    ClientRecord a = client("host-a");
    ClientRecord b = client("host-b");
    s.recordState(a);
    s.recordState(b);
    s.recordState(a); // once is enough
    assertThat(ClientStore.open(dir).loaded()).containsExactlyInAnyOrder(key("host-a"), key("host-b"));
    s.forget(b);
    s.forget(client("host-a")); // another record of the same owner (an unconfirmed one expiring) leaves it alone
    assertThat(ClientStore.open(dir).loaded()).containsExactly(key("host-a"));
  }

  @Test
  void ownersFromBeforeStayUntilTheGracePeriodEnds() {
    ClientStore first = ClientStore.open(dir);
    first.recordState(client("old-1"));
    first.recordState(client("old-2"));
    ClientStore s = ClientStore.open(dir);
    ClientRecord back = client("old-1");
    s.recordState(back); // reclaimed after the restart
    s.forget(client("old-2")); // a record of old-2 made after the restart dropped: old-2 keeps its grace
    assertThat(ClientStore.open(dir).loaded()).containsExactlyInAnyOrder(key("old-1"), key("old-2"));
    s.graceOver(); // old-2 never reclaimed: gone
    assertThat(ClientStore.open(dir).loaded()).containsExactly(key("old-1"));
  }

  @Test
  void withoutAStateDirectoryNothingIsKept() {
    ClientStore s = ClientStore.open(null);
    s.recordState(client("x"));
    assertThat(s.loaded()).isEmpty();
    assertThat(dir).isEmptyDirectory();
  }

  @Test
  void aFileThatIsNotARecordIsIgnored() throws Exception {
    Files.writeString(dir.resolve(ClientStore.FILE), "garbage\n01\n");
    assertThat(ClientStore.open(dir).loaded()).isEmpty();
    Files.writeString(dir.resolve(ClientStore.FILE), ClientStore.HEADER + "\n0a0b\nzz\n");
    assertThat(ClientStore.open(dir).loaded()).containsExactly(ByteBuffer.wrap(new byte[] {10, 11}));
  }

  @Test
  void graceEndsWhenEveryKnownClientHasSentReclaimComplete() {
    TestClock clock = new TestClock();
    AtomicInteger ended = new AtomicInteger();
    Grace g = new Grace(clock, Duration.ofSeconds(90), Set.of(key("a"), key("b")), ended::incrementAndGet);
    ClientRecord a = client("a");
    ClientRecord b = client("b");
    ClientRecord stranger = client("c");
    assertThat(g.active()).isTrue();
    g.checkReclaim(a);
    assertThatThrownBy(() -> g.checkReclaim(stranger)).extracting(e -> ((Nfs4Exception) e).status())
        .isEqualTo(Nfs4.NFS4ERR_RECLAIM_BAD);
    assertThatThrownBy(g::checkNonReclaim).extracting(e -> ((Nfs4Exception) e).status())
        .isEqualTo(Nfs4.NFS4ERR_GRACE);
    a.reclaimComplete = true;
    g.reclaimComplete(a);
    g.reclaimComplete(stranger); // not one of the known clients: changes nothing
    assertThatThrownBy(() -> g.checkReclaim(a)).extracting(e -> ((Nfs4Exception) e).status())
        .isEqualTo(Nfs4.NFS4ERR_NO_GRACE);
    assertThat(g.active()).isTrue();
    assertThat(ended).hasValue(0);
    g.reclaimComplete(b);
    assertThat(g.active()).isFalse();
    assertThat(ended).hasValue(1);
    g.checkNonReclaim();
    assertThatThrownBy(() -> g.checkReclaim(b)).extracting(e -> ((Nfs4Exception) e).status())
        .isEqualTo(Nfs4.NFS4ERR_NO_GRACE);
    assertThat(ended).hasValue(1);
  }

  @Test
  void graceEndsWithTimeAndThereIsNoneWithoutKnownClients() {
    TestClock clock = new TestClock();
    AtomicInteger ended = new AtomicInteger();
    Grace g = new Grace(clock, Duration.ofSeconds(90), Set.of(key("a")), ended::incrementAndGet);
    clock.now = clock.now.plusSeconds(89);
    assertThat(g.active()).isTrue();
    clock.now = clock.now.plusSeconds(1);
    assertThat(g.active()).isFalse();
    assertThat(g.active()).isFalse();
    assertThat(ended).hasValue(1);
    assertThat(new Grace(clock, Duration.ofSeconds(90), Set.of(), () -> {}).active()).isFalse();
  }
}
