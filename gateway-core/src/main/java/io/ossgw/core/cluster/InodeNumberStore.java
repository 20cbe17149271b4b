package io.ossgw.core.cluster;

/**
 * The shared path &lt;-&gt; inode-number table of a cluster (issue 23 item 1): every gateway answers the same number,
 * generation and NFS handle MAC secret, so a handle one gateway issued resolves on every other. {@code
 * io.ossgw.core.inode.InodeTable} keeps the numbering rules (the preferred number, the probe sequence past a taken
 * one, generations, tombstones, directory renames moving everything below); this interface is the storage those rules
 * run on, each method one atomic step of the store (gateway-app's Valkey/Redis form runs each as one Lua script).
 *
 * <p>Numbers and generations travel as {@code long[] {number, generation}}; a path is absolute within its name space.
 * Every method may throw {@link ClusterStoreException} (the store failed: nothing was changed by a failed call, and
 * the caller answers a retryable error, never a guessed number).
 *
 * @see io.ossgw.core.inode.InodeTable#shared
 */
public interface InodeNumberStore {
  /**
   * The table's NFS handle MAC secret: {@code proposed} if the store had none (it keeps it, set once: SET NX), else
   * the one it has.
   *
   * @param proposed 16 random bytes
   * @return the 16 bytes every gateway uses
   */
  byte[] secret(byte[] proposed);

  /** The live path's {@code {number, generation}}, or null if the table has no live entry for it. */
  long[] known(int space, String path);

  /** The generation and path of a number ({@code path} null once removed), or null if never given out. */
  Entry resolve(int space, long number);

  /**
   * Where an NFS named handle (a file's number, its parent directory's number and its name; {@code
   * io.ossgw.nfs.handle.FileHandles}) leads, in one step: the number's entry if it was ever given out (the caller
   * checks its generation); else, when {@code parent} is live, the entry {@code (1, parent's path + "/" + name)},
   * unless a live number holds that path (a rename replaced the file); else null.
   *
   * @param parentIsRoot true if {@code parent} is the name space's root, which the table holds no entry for (its
   *     path is "/")
   */
  Entry resolveNamed(int space, long number, long parent, boolean parentIsRoot, String name);

  /**
   * The path's {@code {number, generation}}, allocated on first sight: the first of {@code candidates} that no live
   * path holds, at the generation after its tombstone's (1 if new).
   *
   * @param candidates numbers to try in order (the preferred number, then its probe sequence)
   * @param record false: when the path is new and the first candidate is free, answer it with generation 0 and record
   *     nothing (a listing's numbers); true: always record
   * @return the number and generation, or null when every candidate is held (ask again with the next ones); an
   *     unrecorded answer (record false, generation 0) carries a third element, 1 if the number has no entry at all
   *     (never given out: NFS may give the path a named handle) and 0 if it is a tombstone's, so a listed entry costs
   *     one request
   */
  long[] allocate(int space, String path, long[] candidates, boolean record);

  /** The path was removed: its number's entry becomes a tombstone (handles STALE), keeping the generation. */
  void removed(int space, String path);

  /**
   * {@code from} was renamed to {@code to}: its number and those of every path below {@code from + "/"} move along,
   * the number {@code to} held before (and any displaced below it) becomes a tombstone. One atomic step.
   */
  void renamed(int space, String from, String to);

  /** One entry: a number's generation and current path, or a null path once removed. */
  record Entry(int generation, String path) {}
}
