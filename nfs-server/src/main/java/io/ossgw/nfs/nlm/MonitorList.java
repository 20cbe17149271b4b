package io.ossgw.nfs.nlm;

import io.ossgw.core.cluster.ClientRecordStore;
import io.ossgw.core.cluster.ClusterStoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import io.ossgw.core.util.AtomicFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The status monitor's list of NLM client hosts and the server's NSM state number (what Linux statd keeps in
 * /var/lib/nfs/statd: its {@code sm/} directory and {@code state} file; XNFS chapter 11): the hosts that hold NLM locks
 * here, kept durably so that after a restart or a takeover each can be sent SM_NOTIFY ({@link SmNotifier}) and its
 * lockd reclaims its locks in the grace period.
 *
 * <p>A host is recorded when it first gets a lock through a monitored LOCK ({@link #monitor}), before the reply, and
 * removed once it has held no lock for {@link #IDLE} (looked at, at most every {@link #IDLE}, by the next LOCK or
 * UNLOCK of any host; as Linux lockd unmonitors a host it has not used for a while: immediate removal would cost a
 * write per lock/unlock cycle of a program that locks one file in a loop), when it
 * tells us it rebooted (SM_NOTIFY, FREE_ALL: {@link #forget}), and once it has been notified of a restart
 * ({@link #notified}) unless it took a lock again. At most {@link #MAX_HOSTS} are recorded; beyond it a host is
 * served unrecorded and a WARN says so.
 *
 * <p>The state number is odd while the server runs (as statd's): each {@link #open}/{@link #inStore} raises it to the
 * next odd number and writes it before serving, so every restart and takeover shows the clients a new one.
 *
 * <p>Where: a file {@value #FILE} in the NFS state directory (header line, {@code state N}, then one host per line:
 * client address, server address, {@code mon_name} in hex; replaced atomically and forced to disk), or in a cluster
 * one record per host in the store (key {@code mon_name@address}, value the host's line) plus the record
 * {@value #STATE_KEY} (the state number in decimal): a host key always holds an '@', so they never collide. Without a
 * state directory or store nothing is kept. Thread-safe (one monitor).
 */
public final class MonitorList {
  /** The file's name in the NFS state directory. */
  public static final String FILE = "nlm-hosts";
  static final String HEADER = "ossgw nlm-hosts 1";
  /** The store record holding the NSM state number (in a cluster). */
  public static final String STATE_KEY = "nsm-state";
  /** Most hosts recorded (the lock table holds 100,000 locks at most by default; a host is ~100 bytes here). */
  public static final int MAX_HOSTS = 10_000;
  /** How long a host holds no lock before it is removed. */
  public static final Duration IDLE = Duration.ofMinutes(2);
  private static final System.Logger LOG = System.getLogger(MonitorList.class.getName());

  /**
   * A client host as its lockd calls us.
   *
   * @param name its {@code caller_name} (the Linux client's node name), the {@code mon_name} its statd monitors
   * @param address the address its calls come from (literal)
   * @param server the address of ours it called (literal): the name its statd knows us by, unless configured
   */
  public record Host(String name, String address, String server) {
    /** The lock table's client of this host, as {@link LockProcs} names it: {@code name@address}. */
    public String key() {
      return name + "@" + address;
    }

    String line() {
      return address + " " + server + " " + HexFormat.of().formatHex(name.getBytes(StandardCharsets.UTF_8));
    }

    /** @throws IllegalArgumentException if the line is not one {@link #line} wrote */
    static Host parse(String line) {
      String[] f = line.strip().split(" ");
      if (f.length != 3 || f[0].isEmpty() || f[1].isEmpty()) {
        throw new IllegalArgumentException("not 'address server hex-name': " + line);
      }
      return new Host(new String(HexFormat.of().parseHex(f[2]), StandardCharsets.UTF_8), f[0], f[1]);
    }
  }

  private final Path file;
  private final ClientRecordStore store;
  private final Clock clock;
  private final int state;
  /** Hosts that took a lock since this start, by key. */
  private final Map<String, Host> current = new LinkedHashMap<>();
  /** Hosts recorded before this start that have not been notified yet, by key. */
  private final Map<String, Host> toNotify = new LinkedHashMap<>();
  /** Hosts of {@link #current} that hold no lock now, with the clock's millis since when. */
  private final Map<String, Long> idleSince = new HashMap<>();
  private long lastSweep;
  private long unrecorded;

  private MonitorList(Path file, ClientRecordStore store, Clock clock, int before, Map<String, Host> loaded) {
    this.file = file;
    this.store = store;
    this.clock = clock;
    this.state = (before & 1) == 1 ? before + 2 : before + 1;
    this.toNotify.putAll(loaded);
    this.lastSweep = clock.millis();
  }

  /** A list that keeps nothing (no state directory): state 1, nobody to notify, hosts counted in memory only. */
  public static MonitorList none(Clock clock) {
    return new MonitorList(null, null, clock, 0, Map.of());
  }

  /**
   * Reads {@value #FILE} in {@code dir} (when there is one), raises the state number and writes it back.
   *
   * @param dir the NFS state directory, or null for {@link #none}
   * @throws UncheckedIOException if the file exists and cannot be read, or the new state cannot be written (the
   *     clients could not tell this start from the last one)
   */
  public static MonitorList open(Path dir, Clock clock) {
    if (dir == null) {
      return none(clock);
    }
    Path f = dir.resolve(FILE);
    int before = 0;
    Map<String, Host> hosts = new LinkedHashMap<>();
    if (Files.exists(f)) {
      List<String> lines;
      try {
        lines = Files.readAllLines(f, StandardCharsets.US_ASCII);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the NLM monitor list " + f, e);
      }
      int read = lines.size() < 2 || !lines.get(0).equals(HEADER) ? -1 : stateOf(lines.get(1));
      if (read < 0) {
        LOG.log(System.Logger.Level.WARNING, f + " is not an NLM monitor list: ignored");
      } else {
        before = read;
        for (String line : lines.subList(2, Math.min(lines.size(), MAX_HOSTS + 2))) {
          add(hosts, line, f.toString());
        }
      }
    }
    MonitorList m = new MonitorList(f, null, clock, before, hosts);
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
    if (!m.save()) {
      throw new UncheckedIOException(new IOException("cannot write the NSM state number to " + f));
    }
    return m;
  }

  /**
   * Loads the hosts and the state number from a cluster's store (on taking the serving lease over), raises the state
   * number and writes it back.
   *
   * @throws ClusterStoreException when the store cannot be read or written (serving must not start without)
   */
  public static MonitorList inStore(ClientRecordStore store, Clock clock) {
    int before = 0;
    Map<String, Host> hosts = new LinkedHashMap<>();
    for (Map.Entry<String, byte[]> e : store.loadAll().entrySet()) {
      String value = new String(e.getValue(), StandardCharsets.US_ASCII);
      if (e.getKey().equals(STATE_KEY)) {
        try {
          before = Math.max(0, Integer.parseInt(value.strip()));
        } catch (NumberFormatException x) {
          LOG.log(System.Logger.Level.WARNING, "NSM state '" + value + "' in the cluster store ignored");
        }
      } else if (hosts.size() < MAX_HOSTS) {
        add(hosts, value, "the cluster store");
      }
    }
    MonitorList m = new MonitorList(null, store, clock, before, hosts);
    store.put(STATE_KEY, Integer.toString(m.state).getBytes(StandardCharsets.US_ASCII));
    return m;
  }

  /** The number of a {@code state N} line, or -1 if it is not one. */
  private static int stateOf(String line) {
    try {
      return line.startsWith("state ") ? Math.max(-1, Integer.parseInt(line.substring(6).strip())) : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static void add(Map<String, Host> hosts, String line, String where) {
    try {
      Host h = Host.parse(line);
      hosts.put(h.key(), h);
    } catch (IllegalArgumentException e) {
      LOG.log(System.Logger.Level.WARNING, "bad NLM host in " + where + " ignored: " + e.getMessage());
    }
  }

  /** This start's NSM state number (odd). */
  public int state() {
    return state;
  }

  /** The hosts recorded before this start that are still to be notified (a copy). */
  public synchronized List<Host> toNotify() {
    return List.copyOf(toNotify.values());
  }

  /** Every host recorded now (a copy; tests, diagnostics). */
  public synchronized List<Host> hosts() {
    Map<String, Host> all = new LinkedHashMap<>(toNotify);
    all.putAll(current);
    return List.copyOf(all.values());
  }

  /**
   * A monitored LOCK of {@code h} is about to be served: it is recorded (written) unless it already is.
   *
   * @throws LockProcs.NlmError NLM4_DENIED_NOLOCKS when the cluster store is unreachable (the client retries; no lock
   *     is taken that a takeover would lose silently); a store that refuses the write (full) or a file that cannot be
   *     written is logged and the host served unrecorded
   */
  synchronized void monitor(Host h) {
    String k = h.key();
    idleSince.remove(k);
    if (current.containsKey(k)) {
      return;
    }
    if (current.size() + toNotify.size() >= MAX_HOSTS && !toNotify.containsKey(k)) {
      if (unrecorded++ % 1000 == 0) {
        LOG.log(System.Logger.Level.WARNING, "NLM monitor list full (" + MAX_HOSTS + " hosts): " + k + " is served "
            + "unrecorded, and its locks will not be reclaimed after a restart or takeover (" + unrecorded
            + " so far)");
      }
      return;
    }
    if (!toNotify.containsKey(k)) {
      if (store != null) {
        try {
          store.put(k, h.line().getBytes(StandardCharsets.US_ASCII));
        } catch (ClusterStoreException e) {
          if (e.kind() == ClusterStoreException.Kind.UNREACHABLE) {
            throw new LockProcs.NlmError(Nlm4.NLM4_DENIED_NOLOCKS, "cannot record NLM host " + k
                + " in the cluster store: " + e.getMessage());
          }
          LOG.log(System.Logger.Level.WARNING, "NLM host " + k + " not recorded in the cluster store ("
              + e.getMessage() + "): its locks will not be reclaimed after a takeover");
        }
        current.put(k, h);
        return;
      }
      current.put(k, h);
      save();
      return;
    }
    current.put(k, h);
  }

  /** {@code client} (a {@link Host#key}) holds {@code held} locks now: at 0 it is removed after {@link #IDLE}. */
  synchronized void held(String client, int held) {
    long now = clock.millis();
    if (held == 0 && current.containsKey(client)) {
      idleSince.putIfAbsent(client, now);
    } else if (held > 0) {
      idleSince.remove(client);
    }
    if (now - lastSweep >= IDLE.toMillis()) {
      lastSweep = now;
      sweep(now);
    }
  }

  private void sweep(long now) {
    boolean changed = false;
    for (var it = idleSince.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (now - e.getValue() >= IDLE.toMillis()) {
        it.remove();
        current.remove(e.getKey());
        changed |= remove(e.getKey());
      }
    }
    if (changed) {
      save();
    }
  }

  /** The host rebooted (SM_NOTIFY or FREE_ALL from it): its locks are gone, it is removed. */
  synchronized void forget(String client) {
    idleSince.remove(client);
    boolean was = current.remove(client) != null | toNotify.remove(client) != null;
    if (was && remove(client)) {
      save();
    }
  }

  /** {@code h} was sent SM_NOTIFY (or could not be): removed unless it took a lock again since. */
  public synchronized void notified(Host h) {
    if (toNotify.remove(h.key()) != null && remove(h.key())) {
      save();
    }
  }

  /** Removes a host from the store unless still recorded; true if the file must be rewritten. */
  private boolean remove(String k) {
    if (current.containsKey(k) || toNotify.containsKey(k)) {
      return false;
    }
    if (store == null) {
      return file != null;
    }
    try {
      store.remove(k);
    } catch (ClusterStoreException e) {
      // one host more to notify after a takeover: harmless
      LOG.log(System.Logger.Level.WARNING, "cannot remove NLM host " + k + " from the cluster store: "
          + e.getMessage());
    }
    return false;
  }

  /** Writes the file (no-op without one); false if it could not be written (logged). */
  private boolean save() {
    if (file == null) {
      return true;
    }
    StringBuilder sb = new StringBuilder(HEADER).append('\n').append("state ").append(state).append('\n');
    for (Host h : hosts()) {
      sb.append(h.line()).append('\n');
    }
    try {
      AtomicFiles.replace(file, sb.toString()); // on disk before the LOCK reply: a crash right after must notify it
      return true;
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot write the NLM monitor list " + file + ": " + e);
      return false;
    }
  }
}
