package io.ossgw.app.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.ossgw.app.serve.Gateway;
import io.ossgw.nfs.NfsServer;
import io.ossgw.nfs.v4.Compound;
import io.ossgw.nfs.v4.LockState;
import io.ossgw.nfs.v4.ServerState;
import io.ossgw.nfs.v4.state.ClientTable;
import io.ossgw.nfs.v4.state.OpenState;
import io.ossgw.nfs.v4.state.StateTable;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * NFSv4.1 meters, read from the running NFS server at scrape time (registered once at start-up; 0 while NFSv4.1 is
 * not served), beside the NFSv3 ones of {@link FrontEndMetrics}:
 *
 * <ul>
 *   <li>{@code ossgw_nfs4_operations_total{op}}: operations asked for in COMPOUNDs, by RFC 8881 §16.2.1 name in lower
 *       case ({@code sequence}, {@code putfh}, {@code read}, ...; {@code illegal} for numbers outside minor version
 *       1), refused ones included ({@link Compound#count});
 *   <li>{@code ossgw_nfs4_clients}, {@code ossgw_nfs4_sessions}: client records and sessions held now
 *       ({@link ClientTable});
 *   <li>{@code ossgw_nfs4_state_bytes}: heap bytes charged for them (reply caches reserved whole), against
 *       {@code ossgw_nfs4_state_limit_bytes}; {@code ossgw_nfs4_clients_evicted_total}: unconfirmed client records
 *       dropped to make room;
 *   <li>{@code ossgw_nfs4_states{kind}}: stateids held now ({@link StateTable}): {@code open} (OPEN, one per open
 *       owner and file) and {@code lock} (LOCK, one per lock owner and file).
 * </ul>
 */
@ApplicationScoped
public class Nfs4Metrics {
  /** nfs_opnum4 3..58 (RFC 8881 §16.2.1, minor version 1) in order, as metric label values. */
  static final String[] OPS = {"access", "close", "commit", "create", "delegpurge", "delegreturn", "getattr", "getfh",
      "link", "lock", "lockt", "locku", "lookup", "lookupp", "nverify", "open", "openattr", "open_confirm",
      "open_downgrade", "putfh", "putpubfh", "putrootfh", "read", "readdir", "readlink", "remove", "rename", "renew",
      "restorefh", "savefh", "secinfo", "setattr", "setclientid", "setclientid_confirm", "verify", "write",
      "release_lockowner", "backchannel_ctl", "bind_conn_to_session", "exchange_id", "create_session",
      "destroy_session", "free_stateid", "get_dir_delegation", "getdeviceinfo", "getdevicelist", "layoutcommit",
      "layoutget", "layoutreturn", "secinfo_no_name", "sequence", "set_ssv", "test_stateid", "want_delegation",
      "destroy_clientid", "reclaim_complete"};

  @Inject MeterRegistry registry;
  @Inject Gateway gateway;

  private final List<Meter> meters = new ArrayList<>();

  synchronized void onStart(@Observes StartupEvent event) {
    for (int i = 0; i <= OPS.length; i++) {
      int opnum = i < OPS.length ? Nfs4.OP_ACCESS + i : Nfs4.OP_ILLEGAL;
      meters.add(FunctionCounter.builder("ossgw.nfs4.operations", this,
              m -> m.read(s -> s.v4Compound() == null ? 0 : s.v4Compound().count(opnum)))
          .description("NFSv4.1 operations asked for in COMPOUNDs, by operation")
          .tag("op", i < OPS.length ? OPS[i] : "illegal").register(registry));
    }
    meters.add(Gauge.builder("ossgw.nfs4.clients", this,
            m -> m.read(s -> s.v4Clients() == null ? 0 : s.v4Clients().clients()))
        .description("NFSv4.1 client records (EXCHANGE_ID) held").register(registry));
    meters.add(Gauge.builder("ossgw.nfs4.sessions", this,
            m -> m.read(s -> s.v4Clients() == null ? 0 : s.v4Clients().sessions()))
        .description("NFSv4.1 sessions (CREATE_SESSION) held").register(registry));
    meters.add(Gauge.builder("ossgw.nfs4.state", this,
            m -> m.read(s -> s.v4Clients() == null ? 0 : s.v4Clients().stateBytes()))
        .description("Heap bytes charged for NFSv4.1 client records and sessions").baseUnit("bytes")
        .register(registry));
    meters.add(Gauge.builder("ossgw.nfs4.state.limit", this,
            m -> m.read(s -> s.v4Clients() == null ? 0 : s.v4Clients().limits().stateBytes()))
        .description("Heap bytes NFSv4.1 client records and sessions may hold").baseUnit("bytes")
        .register(registry));
    meters.add(FunctionCounter.builder("ossgw.nfs4.clients.evicted", this,
            m -> m.read(s -> s.v4Clients() == null ? 0 : s.v4Clients().evicted()))
        .description("Unconfirmed NFSv4.1 client records dropped to make room").register(registry));
    for (var kind : java.util.Map.of("open", OpenState.class, "lock", LockState.class).entrySet()) {
      meters.add(Gauge.builder("ossgw.nfs4.states", this, m -> m.read(s -> states(s, kind.getValue())))
          .description("NFSv4.1 stateids held, by kind").tag("kind", kind.getKey()).register(registry));
    }
  }

  /** See {@link FrontEndMetrics#onStop}: the global registry outlives the application. */
  synchronized void onStop(@Observes ShutdownEvent event) {
    meters.forEach(registry::remove);
    meters.clear();
  }

  private static long states(NfsServer s, Class<? extends StateTable.State> kind) {
    ServerState v4 = s.v4State();
    return v4 == null ? 0 : v4.states().count(kind);
  }

  private long read(ToLongFunction<NfsServer> f) {
    return gateway.nfsServer().map(f::applyAsLong).orElse(0L);
  }
}
