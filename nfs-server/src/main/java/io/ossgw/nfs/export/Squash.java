package io.ossgw.nfs.export;

/** How AUTH_SYS identities are mapped on an export (exports(5) root_squash, all_squash, no_root_squash). */
public enum Squash {
  /** uid 0 becomes anonuid and gid 0 anongid (the default). */
  ROOT_SQUASH,
  /** Every uid and gid becomes anonuid/anongid. */
  ALL_SQUASH,
  /** Identities are taken as sent, root included. */
  NO_ROOT_SQUASH
}
