package io.ossgw.core.config;

/** How ossgw treats an ossfs {@code -o} option name. */
public enum OptionKind {
  /** Implemented by the engine with ossfs's meaning. */
  ENGINE,
  /** Passed to FUSE (libfuse) unchanged, as ossfs does. */
  FUSE,
  /** Accepted with no effect, because ossgw already behaves that way (e.g. listobjectsv2, fstab words). */
  ACCEPTED,
  /** An ossfs option ossgw does not implement yet: refused by name at mount time, never silently ignored. */
  NOT_IMPLEMENTED
}
