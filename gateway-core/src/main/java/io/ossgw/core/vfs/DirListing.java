package io.ossgw.core.vfs;

import java.util.List;

/**
 * A whole directory listing (without "." and ".."), in position order ({@link DirEntry#position()}, the order OSS
 * lists keys in): what {@link VirtualFileSystem#readdir(String)} gathers from its pages, for directories known to be
 * small.
 *
 * @param entries the entries
 */
public record DirListing(List<DirEntry> entries) {
  public DirListing {
    entries = List.copyOf(entries);
  }
}
