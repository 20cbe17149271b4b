package io.ossgw.core.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Byte-range locks with POSIX semantics (fcntl(2) F_SETLK/F_GETLK, as NLM v4 and NFSv4.1 LOCK/LOCKT/LOCKU expect),
 * kept in memory for every front end of one gateway: a lock taken through one protocol conflicts with one taken
 * through another, because both name the file by the same {@link FileKey}.
 *
 * <ul>
 *   <li>Ranges are inclusive {@code [start, end]} of non-negative offsets; {@link #TO_EOF} as end means "to the end of
 *       the file, whatever its size" (NLM length 0, NFSv4 length all ones). {@link #end(long, long)} converts an
 *       offset and length.
 *   <li>A lock conflicts with a lock of <em>another</em> owner on an overlapping range when either is exclusive.
 *   <li>A new lock of an owner replaces what that owner holds in its range (upgrade or downgrade in place); unlock
 *       trims or splits the owner's locks; adjacent or overlapping locks of one owner and mode merge, as in the Linux
 *       kernel's posix_lock_file.
 *   <li>Bounded: at most {@code maxPerClient} lock records per client and {@code maxTotal} in all. A lock or unlock
 *       that would need more records is refused with {@link Status#NO_LOCKS} and changes nothing.
 *   <li>A lock request may wait (bounded) for conflicts to clear; {@link #cancel} ends such a wait.
 * </ul>
 *
 * Thread-safe (one monitor for the whole table: lock calls are rare next to I/O). Nothing here is NLM- or
 * NFSv4-specific: owners are opaque strings the front end builds from its protocol's owner identity.
 */
public final class LockTable {
  /** The end offset meaning "to the end of the file". */
  public static final long TO_EOF = Long.MAX_VALUE;

  /** Shared (read) or exclusive (write) lock. */
  public enum Mode {
    SHARED, EXCLUSIVE
  }

  /** The outcome of a lock or unlock request. */
  public enum Status {
    /** Done. */
    GRANTED,
    /** Another owner holds a conflicting lock ({@link Result#holder()} is one of them). */
    CONFLICT,
    /** Granting it would exceed the cap on lock records of the client or of the table. */
    NO_LOCKS,
    /** The request was waiting and was cancelled ({@link #cancel} or {@link #releaseClient}). */
    CANCELLED
  }

  /**
   * A file as every front end names it.
   *
   * @param volume the export (file system) the file belongs to, e.g. the NFS export id
   * @param fileid the file's id within it, e.g. the NFS fileid (stable across renames)
   */
  public record FileKey(long volume, long fileid) {}

  /**
   * Who holds a lock.
   *
   * @param client the client the owner belongs to, e.g. NLM caller name and address; {@link #releaseClient} drops
   *     every lock of it
   * @param id the owner within the client, e.g. NLM owner handle and svid, or an NFSv4 lock-owner
   */
  public record Owner(String client, String id) {
    public Owner {
      Objects.requireNonNull(client);
      Objects.requireNonNull(id);
    }
  }

  /**
   * A held lock.
   *
   * @param start first byte, &gt;= 0
   * @param end last byte (inclusive), {@link #TO_EOF} for to the end of file
   */
  public record Lock(Owner owner, Mode mode, long start, long end) {
    boolean overlaps(long s, long e) {
      return start <= e && s <= end;
    }

    boolean conflicts(Owner other, Mode m, long s, long e) {
      return !owner.equals(other) && overlaps(s, e) && (mode == Mode.EXCLUSIVE || m == Mode.EXCLUSIVE);
    }
  }

  /** @param holder a conflicting lock for {@link Status#CONFLICT}, else null */
  public record Result(Status status, Lock holder) {
    static final Result GRANTED = new Result(Status.GRANTED, null);
    static final Result NO_LOCKS = new Result(Status.NO_LOCKS, null);
    static final Result CANCELLED = new Result(Status.CANCELLED, null);
  }

  private static final class Waiter {
    final FileKey file;
    final Owner owner;
    final long start;
    final long end;
    boolean cancelled;

    Waiter(FileKey file, Owner owner, long start, long end) {
      this.file = file;
      this.owner = owner;
      this.start = start;
      this.end = end;
    }
  }

  private final int maxPerClient;
  private final int maxTotal;
  private final ReentrantLock mu = new ReentrantLock();
  private final Condition changed = mu.newCondition();
  private final Map<FileKey, List<Lock>> files = new HashMap<>();
  private final Map<String, Integer> perClient = new HashMap<>();
  private final List<Waiter> waiters = new ArrayList<>();
  private int total;

  /**
   * @param maxPerClient most lock records one client may hold
   * @param maxTotal most lock records in the table
   * @throws IllegalArgumentException if a cap is not positive
   */
  public LockTable(int maxPerClient, int maxTotal) {
    if (maxPerClient <= 0 || maxTotal <= 0) {
      throw new IllegalArgumentException("lock caps must be positive: " + maxPerClient + ", " + maxTotal);
    }
    this.maxPerClient = maxPerClient;
    this.maxTotal = maxTotal;
  }

  private LockTable() {
    this.maxPerClient = 0;
    this.maxTotal = 0;
  }

  /**
   * A table that grants nothing: every lock request is {@link Status#NO_LOCKS} (NLM4_DENIED_NOLOCKS to an NFSv3
   * client, ENOLCK to its application), TEST finds no conflict and UNLOCK succeeds. For front ends whose locks could
   * not hold beyond this process: gateways in a cluster's active mode each serve the same files, and a lock taken
   * in one would not exclude a client of another (issue 23; SEMANTICS.md "Cluster").
   */
  public static LockTable none() {
    return new LockTable();
  }

  /**
   * The inclusive end of the range of {@code length} bytes at {@code offset}: {@link #TO_EOF} for length 0 (NLM's
   * "to end of file") and for ranges reaching past {@link Long#MAX_VALUE}.
   *
   * @throws IllegalArgumentException for a negative offset (callers map offsets past 2^63-1 to their protocol's
   *     "too big" error first)
   */
  public static long end(long offset, long length) {
    if (offset < 0) {
      throw new IllegalArgumentException("negative offset " + offset);
    }
    if (length == 0 || length < 0 || length - 1 > TO_EOF - offset) {
      return TO_EOF;
    }
    return offset + length - 1;
  }

  /** Takes the lock now if nothing conflicts; never waits. */
  public Result lock(FileKey file, Owner owner, Mode mode, long start, long end) {
    check(start, end);
    mu.lock();
    try {
      return tryLock(file, owner, mode, start, end);
    } finally {
      mu.unlock();
    }
  }

  /**
   * Takes the lock, waiting up to {@code wait} for conflicting locks to go away.
   *
   * @return GRANTED, CONFLICT (still held by another owner after {@code wait}), NO_LOCKS, or CANCELLED
   * @throws InterruptedException if the thread is interrupted while waiting (nothing is taken)
   */
  public Result lock(FileKey file, Owner owner, Mode mode, long start, long end, Duration wait)
      throws InterruptedException {
    check(start, end);
    mu.lock();
    try {
      Result r = tryLock(file, owner, mode, start, end);
      if (r.status() != Status.CONFLICT || wait.isZero() || wait.isNegative()) {
        return r;
      }
      Waiter w = new Waiter(file, owner, start, end);
      waiters.add(w);
      try {
        long nanos = wait.toNanos();
        while (true) {
          if (w.cancelled) {
            return Result.CANCELLED;
          }
          r = tryLock(file, owner, mode, start, end);
          if (r.status() != Status.CONFLICT || nanos <= 0) {
            return r;
          }
          nanos = changed.awaitNanos(nanos);
        }
      } finally {
        waiters.remove(w);
      }
    } finally {
      mu.unlock();
    }
  }

  /** The first conflicting lock another owner holds (F_GETLK, NLM TEST, NFSv4 LOCKT), or null if none. */
  public Lock test(FileKey file, Owner owner, Mode mode, long start, long end) {
    check(start, end);
    mu.lock();
    try {
      return conflict(files.getOrDefault(file, List.of()), owner, mode, start, end);
    } finally {
      mu.unlock();
    }
  }

  /**
   * Releases what {@code owner} holds in {@code [start, end]} (nothing held is fine).
   *
   * @return GRANTED, or NO_LOCKS if splitting a lock would need a record over the caps (nothing changes)
   */
  public Result unlock(FileKey file, Owner owner, long start, long end) {
    check(start, end);
    mu.lock();
    try {
      List<Lock> list = files.get(file);
      if (list == null) {
        return Result.GRANTED;
      }
      return apply(file, list, owner, null, start, end);
    } finally {
      mu.unlock();
    }
  }

  /**
   * Ends the wait of {@code owner}'s pending requests overlapping {@code [start, end]} of {@code file}: they return
   * {@link Status#CANCELLED} and take nothing.
   *
   * @return how many waiting requests were cancelled
   */
  public int cancel(FileKey file, Owner owner, long start, long end) {
    mu.lock();
    try {
      int n = 0;
      for (Waiter w : waiters) {
        if (!w.cancelled && w.file.equals(file) && w.owner.equals(owner) && w.start <= end && start <= w.end) {
          w.cancelled = true;
          n++;
        }
      }
      if (n > 0) {
        changed.signalAll();
      }
      return n;
    } finally {
      mu.unlock();
    }
  }

  /**
   * Drops every lock of a client and cancels its waiting requests (the client rebooted, SM_NOTIFY, NLM FREE_ALL, an
   * NFSv4 lease expired).
   *
   * @return how many lock records were dropped
   */
  public int releaseClient(String client) {
    mu.lock();
    try {
      int dropped = 0;
      var it = files.entrySet().iterator();
      while (it.hasNext()) {
        List<Lock> list = it.next().getValue();
        int before = list.size();
        list.removeIf(l -> l.owner().client().equals(client));
        dropped += before - list.size();
        if (list.isEmpty()) {
          it.remove();
        }
      }
      for (Waiter w : waiters) {
        if (w.owner.client().equals(client)) {
          w.cancelled = true;
        }
      }
      perClient.remove(client);
      total -= dropped;
      changed.signalAll();
      return dropped;
    } finally {
      mu.unlock();
    }
  }

  /** The locks held on a file, by start offset (tests, diagnostics). */
  public List<Lock> locks(FileKey file) {
    mu.lock();
    try {
      List<Lock> l = new ArrayList<>(files.getOrDefault(file, List.of()));
      l.sort(Comparator.comparingLong(Lock::start));
      return l;
    } finally {
      mu.unlock();
    }
  }

  /** Lock records {@code client} holds now (0 when none), over all files: NLM forgets a host when it holds none. */
  public int held(String client) {
    mu.lock();
    try {
      return perClient.getOrDefault(client, 0);
    } finally {
      mu.unlock();
    }
  }

  /** Lock records held now, over all files. */
  public int size() {
    mu.lock();
    try {
      return total;
    } finally {
      mu.unlock();
    }
  }

  /** Requests waiting now. */
  public int waiting() {
    mu.lock();
    try {
      return waiters.size();
    } finally {
      mu.unlock();
    }
  }

  private static void check(long start, long end) {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("bad lock range [" + start + ", " + end + "]");
    }
  }

  private Result tryLock(FileKey file, Owner owner, Mode mode, long start, long end) {
    List<Lock> list = files.computeIfAbsent(file, k -> new ArrayList<>());
    Lock c = conflict(list, owner, mode, start, end);
    if (c != null) {
      if (list.isEmpty()) {
        files.remove(file);
      }
      return new Result(Status.CONFLICT, c);
    }
    return apply(file, list, owner, mode, start, end);
  }

  private static Lock conflict(List<Lock> list, Owner owner, Mode mode, long start, long end) {
    Lock first = null;
    for (Lock l : list) {
      if (l.conflicts(owner, mode, start, end) && (first == null || l.start() < first.start())) {
        first = l;
      }
    }
    return first;
  }

  /**
   * Replaces what {@code owner} holds in {@code [start, end]} by a lock of {@code mode} (null: by nothing), merging
   * the owner's touching locks of one mode, within the caps.
   */
  private Result apply(FileKey file, List<Lock> list, Owner owner, Mode mode, long start, long end) {
    List<Lock> mine = new ArrayList<>();
    int before = 0;
    for (Lock l : list) {
      if (!l.owner().equals(owner)) {
        continue;
      }
      before++;
      if (!l.overlaps(start, end)) {
        mine.add(l);
        continue;
      }
      if (l.start() < start) {
        mine.add(new Lock(owner, l.mode(), l.start(), start - 1));
      }
      if (l.end() > end) {
        mine.add(new Lock(owner, l.mode(), end + 1, l.end()));
      }
    }
    if (mode != null) {
      mine.add(new Lock(owner, mode, start, end));
    }
    mine = merge(mine);
    int delta = mine.size() - before;
    int held = perClient.getOrDefault(owner.client(), 0);
    if (delta > 0 && (held + delta > maxPerClient || total + delta > maxTotal)) {
      if (list.isEmpty()) {
        files.remove(file);
      }
      return Result.NO_LOCKS;
    }
    list.removeIf(l -> l.owner().equals(owner));
    list.addAll(mine);
    if (list.isEmpty()) {
      files.remove(file);
    }
    total += delta;
    if (held + delta == 0) {
      perClient.remove(owner.client());
    } else {
      perClient.put(owner.client(), held + delta);
    }
    if (delta != 0 || mode != Mode.EXCLUSIVE) {
      changed.signalAll(); // something was released or downgraded: a waiter may now get its lock
    }
    return Result.GRANTED;
  }

  /** One owner's locks, sorted, with touching locks of the same mode joined. */
  private static List<Lock> merge(List<Lock> locks) {
    locks.sort(Comparator.comparingLong(Lock::start));
    List<Lock> out = new ArrayList<>(locks.size());
    for (Lock l : locks) {
      Lock last = out.isEmpty() ? null : out.getLast();
      if (last != null && last.mode() == l.mode() && (last.end() == TO_EOF || last.end() + 1 >= l.start())) {
        out.set(out.size() - 1, new Lock(l.owner(), l.mode(), last.start(), Math.max(last.end(), l.end())));
      } else {
        out.add(l);
      }
    }
    return out;
  }
}
