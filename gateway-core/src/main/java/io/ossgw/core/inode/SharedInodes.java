package io.ossgw.core.inode;

import io.ossgw.core.cluster.InodeNumberStore;
import java.security.SecureRandom;

/**
 * {@link InodeTable}'s numbering on a cluster store: the candidate numbers are computed here (the preferred number,
 * then {@link InodeTable#mix} steps, as the file's table probes), so a store-backed table and a file's table that saw
 * the same history give the same numbers, and a table imported from a file goes on numbering as the file would have.
 */
final class SharedInodes {
  /** Candidates sent per request: one is almost always enough (the preferred number of an object never renamed). */
  private static final int BATCH = 8;

  private final InodeNumberStore store;

  SharedInodes(InodeNumberStore store) {
    this.store = store;
  }

  byte[] secret() {
    byte[] proposed = new byte[16];
    new SecureRandom().nextBytes(proposed);
    return store.secret(proposed);
  }

  InodeTable.Entry resolve(int space, long fileid) {
    InodeNumberStore.Entry e = store.resolve(space, fileid);
    return e == null ? null : new InodeTable.Entry(e.generation(), e.path());
  }

  InodeTable.Entry resolveNamed(int space, long number, long parent, String name) {
    InodeNumberStore.Entry e = store.resolveNamed(space, number, parent, parent == InodeTable.ROOT, name);
    return e == null ? null : new InodeTable.Entry(e.generation(), e.path());
  }

  Long known(int space, String path) {
    long[] k = store.known(space, path);
    return k == null ? null : k[0];
  }

  /** {@code {number, generation}} of a path, allocated (when {@code record}) at the first free candidate. */
  long[] idOf(int space, String path, long preferred, boolean record) {
    long next = preferred > InodeTable.ROOT ? preferred : InodeTable.mix(preferred);
    boolean first = true;
    while (true) {
      long[] candidates = new long[BATCH];
      for (int i = 0; i < BATCH; i++) {
        candidates[i] = next;
        next = InodeTable.mix(next);
      }
      // record=false only spares the first candidate: past it, the number shown must be the one the path keeps
      long[] got = store.allocate(space, path, candidates, record || !first);
      if (got != null) {
        return got;
      }
      first = false;
    }
  }

  void removed(int space, String path) {
    store.removed(space, path);
  }

  void renamed(int space, String from, String to) {
    store.renamed(space, from, to);
  }
}
