package io.ossgw.core.vfs;

import java.util.List;

/**
 * A directory's entries (without "." and ".."), sorted by name in byte order of their UTF-8 form, the order OSS lists.
 *
 * @param entries the entries
 * @param verifier changes when the listing was rebuilt from OSS; NFS READDIR uses it as the cookie verifier
 */
public record DirListing(List<DirEntry> entries, long verifier) {
  public DirListing {
    entries = List.copyOf(entries);
  }
}
