package io.ossgw.core.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import io.ossgw.core.meta.Node;
import io.ossgw.core.vfs.DirPage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The listing pages of directories too big to keep whole (issue 21): each {@link Chunk} is one ListObjectsV2 page of
 * one directory as listing entries, covering the positions after its start up to the last key OSS returned. A paged
 * readdir is served from the chunk that covers its resume position and the chunks after it; a chunk missing (never
 * fetched, evicted or expired) is fetched again with {@code start-after}, so the window only saves requests and
 * nothing depends on what it keeps. Lookups of names inside a directory use the chunks too: a name within a chunk's
 * range and not in it does not exist.
 *
 * <p>Bounded in bytes ({@link MetadataBudget#windowBytes()}), least recently used first, and each chunk lives for the
 * stat cache's TTL. Not a Caffeine cache, deliberately: its admission policy may turn away a chunk just fetched in
 * favour of older ones, and then every readdir call of a front end (FUSE asks for a few kilobytes at a time) would
 * fetch its page again. Here the chunk fetched last is the last one evicted. Thread-safe (one lock; every operation
 * is a few map steps).
 */
public final class ListingWindow {
  /**
   * One page of a streamed directory: entries sorted by position ({@link DirPage#compare}).
   *
   * @see ListingWindow
   */
  public static final class Chunk {
    final String from;
    final String to;
    final String[] positions;
    final Node[] nodes;
    final String nextToken;
    final boolean eof;
    final String[] undecided;
    final long weight;
    long expiresAtNanos;

    /**
     * @param from the position the page starts after ("" for the directory's start)
     * @param to the last position OSS returned on the page (entries it hid included); the chunk covers (from, to]
     * @param positions the entries' positions, ascending
     * @param nodes the entries' nodes, one per position
     * @param nextToken the continuation token of the next page, or null
     * @param eof true for the directory's last page (the chunk then covers everything after {@code from})
     * @param undecided positions of files {@code x} (ascending) whose directory form {@code x/} would lie after
     *     {@code to}: the next page tells whether a directory hides them
     */
    public Chunk(String from, String to, String[] positions, Node[] nodes, String nextToken, boolean eof,
        String[] undecided) {
      this.from = from;
      this.to = to;
      this.positions = positions;
      this.nodes = nodes;
      this.nextToken = nextToken;
      this.eof = eof;
      this.undecided = undecided;
      long w = 128 + Footprint.string(from) + Footprint.string(to) + Footprint.string(nextToken) + 16L * positions.length;
      for (int i = 0; i < positions.length; i++) {
        w += Footprint.entry(positions[i], nodes[i]) - Footprint.SORTED_ENTRY;
      }
      this.weight = w;
    }

    public String from() {
      return from;
    }

    public String to() {
      return to;
    }

    public String nextToken() {
      return nextToken;
    }

    public boolean eof() {
      return eof;
    }

    public int size() {
      return positions.length;
    }

    public String position(int i) {
      return positions[i];
    }

    public Node node(int i) {
      return nodes[i];
    }

    /** The heap the chunk holds, in bytes. */
    public long weight() {
      return weight;
    }

    /** The positions of the files that a directory on the next page may hide ({@link #undecided(int)}). */
    public List<String> undecidedFiles() {
      return List.of(undecided);
    }

    /** True if entry {@code i} is a file that a directory of its name on the next page would hide. */
    public boolean undecided(int i) {
      return undecided.length > 0 && Arrays.binarySearch(undecided, positions[i], DirPage::compare) >= 0;
    }

    /** True if the entries right after {@code position} are in this chunk (or it is the last and has none). */
    public boolean covers(String position) {
      return DirPage.compare(from, position) <= 0 && (eof || DirPage.compare(position, to) < 0);
    }

    /** Index of the first entry after {@code position}. */
    public int firstAfter(String position) {
      int lo = 0;
      int hi = positions.length;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (DirPage.compare(positions[mid], position) <= 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }

    /** Index of {@code position}, or -1. */
    public int indexOf(String position) {
      int i = Arrays.binarySearch(positions, position, DirPage::compare);
      return i >= 0 ? i : -1;
    }

    /** True if {@code position} lies inside this chunk's range: its absence from it means the key is absent. */
    public boolean spans(String position) {
      return DirPage.compare(from, position) < 0 && (eof || DirPage.compare(position, to) <= 0);
    }
  }

  private record Key(String dir, String from) {}

  private final long maxBytes;
  private final long ttlNanos;
  private final boolean sliding;
  private final Ticker ticker;
  private final LinkedHashMap<Key, Chunk> lru = new LinkedHashMap<>(64, 0.75f, true);
  private final Map<String, TreeMap<String, Chunk>> byDir = new HashMap<>();
  private long bytes;

  /**
   * @param ttl a chunk's lifetime (the stat cache's), or null for none
   * @param sliding the lifetime counts from the last use
   * @param maxBytes the bound in bytes
   */
  public ListingWindow(Duration ttl, boolean sliding, long maxBytes, Ticker ticker) {
    this.maxBytes = maxBytes;
    this.ttlNanos = ttl == null ? Long.MAX_VALUE : ttl.toNanos();
    this.sliding = sliding;
    this.ticker = ticker;
  }

  /** The chunk whose entries follow {@code position} ("" for the start) in {@code dir}, or null. */
  public synchronized Chunk covering(String dir, String position) {
    TreeMap<String, Chunk> chunks = byDir.get(dir);
    Map.Entry<String, Chunk> e = chunks == null ? null : chunks.floorEntry(position);
    if (e == null || !e.getValue().covers(position)) {
      return null;
    }
    return touch(dir, e.getValue());
  }

  /** Adds a chunk (replacing one of the same directory and start), evicting the least recently used beyond the bound. */
  public synchronized void put(String dir, Chunk c) {
    c.expiresAtNanos = expiry();
    Chunk old = lru.put(new Key(dir, c.from), c);
    if (old != null) {
      bytes -= old.weight;
    }
    byDir.computeIfAbsent(dir, d -> new TreeMap<>(DirPage::compare)).put(c.from, c);
    bytes += c.weight;
    Iterator<Map.Entry<Key, Chunk>> it = lru.entrySet().iterator();
    while (bytes > maxBytes && it.hasNext()) {
      Map.Entry<Key, Chunk> e = it.next();
      if (e.getValue() == c) {
        break; // the chunk just added always stays
      }
      it.remove();
      forget(e.getKey(), e.getValue());
    }
  }

  /** What the window knows of a name in a directory. */
  public sealed interface Found permits Present, Absent, Unknown {}

  /** The name's node. */
  public record Present(Node node) implements Found {}

  /** The chunks covering every key the name could have hold none of them. */
  public record Absent() implements Found {}

  /** Some key of the name is outside every chunk. */
  public record Unknown() implements Found {}

  /**
   * Looks a name up: a directory ({@code name/}) first, then a file (only once the directory form is known absent,
   * since it would hide the file), then (with {@code compatDirs}) an old-style {@code name_$folder$} directory, as
   * {@link DirState#child} does.
   */
  public synchronized Found find(String dir, String name, boolean compatDirs) {
    TreeMap<String, Chunk> chunks = byDir.get(dir);
    if (chunks == null) {
      return new Unknown();
    }
    String[] forms = compatDirs ? new String[] {name + "/", name, name + DirState.FOLDER_SUFFIX}
        : new String[] {name + "/", name};
    boolean allSpanned = true;
    for (String p : forms) {
      Chunk c = spanning(dir, chunks, p);
      if (c == null) {
        allSpanned = false;
        continue;
      }
      int i = c.indexOf(p);
      if (i >= 0 && DirState.nameOf(p, c.nodes[i]).equals(name)) {
        return allSpanned ? new Present(c.nodes[i]) : new Unknown();
      }
    }
    return allSpanned ? new Absent() : new Unknown();
  }

  private Chunk spanning(String dir, TreeMap<String, Chunk> chunks, String p) {
    Map.Entry<String, Chunk> e = chunks.lowerEntry(p);
    if (e == null || !e.getValue().spans(p)) {
      return null;
    }
    return touch(dir, e.getValue());
  }

  /**
   * Records a changed child: its entry is replaced where a chunk holds it at the same position; a chunk whose range
   * the name falls into but that does not hold it (a new entry) is dropped, to be fetched again.
   */
  public synchronized void childChanged(String dir, String name, Node node) {
    TreeMap<String, Chunk> chunks = byDir.get(dir);
    if (chunks == null) {
      return;
    }
    String p = DirState.positionOf(name, node);
    for (Chunk c : List.copyOf(chunks.values())) {
      if (c.spans(p)) {
        int i = c.indexOf(p);
        if (i >= 0) {
          c.nodes[i] = node;
        } else {
          drop(dir, c);
        }
      }
    }
    childRemovedAt(dir, chunks, name, p);
  }

  /** Records a removed child: the chunks that span any of its positions are dropped. */
  public synchronized void childRemoved(String dir, String name) {
    TreeMap<String, Chunk> chunks = byDir.get(dir);
    if (chunks != null) {
      childRemovedAt(dir, chunks, name, null);
    }
  }

  private void childRemovedAt(String dir, TreeMap<String, Chunk> chunks, String name, String kept) {
    for (String p : new String[] {name, name + "/", name + DirState.FOLDER_SUFFIX}) {
      if (p.equals(kept)) {
        continue;
      }
      for (Chunk c : List.copyOf(chunks.values())) {
        if (c.spans(p) && c.indexOf(p) >= 0) {
          drop(dir, c);
        }
      }
    }
  }

  /** Drops every chunk of a directory. */
  public synchronized void invalidate(String dir) {
    TreeMap<String, Chunk> chunks = byDir.remove(dir);
    if (chunks != null) {
      for (Chunk c : chunks.values()) {
        if (lru.remove(new Key(dir, c.from)) != null) {
          bytes -= c.weight;
        }
      }
    }
  }

  /** Drops the chunks of {@code dir} and of every directory below it. */
  public synchronized void invalidateTree(String dir) {
    String below = "/".equals(dir) ? "/" : dir + "/";
    for (String d : new ArrayList<>(byDir.keySet())) {
      if (d.equals(dir) || d.startsWith(below)) {
        invalidate(d);
      }
    }
  }

  /** Bytes held now. */
  public synchronized long weightedSize() {
    return bytes;
  }

  private Chunk touch(String dir, Chunk c) {
    if (ticker.read() - c.expiresAtNanos > 0) {
      drop(dir, c);
      return null;
    }
    lru.get(new Key(dir, c.from)); // access order
    if (sliding) {
      c.expiresAtNanos = expiry();
    }
    return c;
  }

  private long expiry() {
    long now = ticker.read();
    return ttlNanos == Long.MAX_VALUE ? Long.MAX_VALUE : now + ttlNanos;
  }

  private void drop(String dir, Chunk c) {
    Key k = new Key(dir, c.from);
    if (lru.get(k) == c) {
      lru.remove(k);
      forget(k, c);
    }
  }

  private void forget(Key k, Chunk c) {
    bytes -= c.weight;
    TreeMap<String, Chunk> chunks = byDir.get(k.dir());
    if (chunks != null) {
      chunks.remove(k.from(), c);
      if (chunks.isEmpty()) {
        byDir.remove(k.dir());
      }
    }
  }
}
