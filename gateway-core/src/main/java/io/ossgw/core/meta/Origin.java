package io.ossgw.core.meta;

/** Which object (if any) a path's attributes come from (reference/ossfs-compat.md §3.1). */
public enum Origin {
  /** The mount root (the prefix itself). */
  ROOT,
  /** A plain object {@code a/b}: a file or a symlink. */
  FILE,
  /** A {@code a/b/} marker object. */
  DIR_MARKER,
  /** No object: some key lies below {@code a/b/}. */
  IMPLICIT_DIR,
  /** A directory seen only as a listing's common prefix: its marker, if any, has not been read yet. */
  PREFIX,
  /** An old-style directory object {@code a/b} (no slash, directory mode or content type). */
  COMPAT_DIR,
  /** An unsaved file that exists only in the gateway (created, not yet flushed). */
  PENDING
}
