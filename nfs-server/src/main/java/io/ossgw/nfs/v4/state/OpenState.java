package io.ossgw.nfs.v4.state;

import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.fs.OpenFiles;
import java.util.Arrays;

/**
 * The open state of one open owner on one file (RFC 8881 §9.1: one stateid per (open owner, file), its seqid bumped
 * by every OPEN upgrade and OPEN_DOWNGRADE): the share access and deny it holds and the shared handle it keeps open
 * ({@link OpenFiles.Pin}) until CLOSE or the client's expiry. Access and deny change under {@link Opens}' monitor and
 * are read anywhere.
 */
public final class OpenState extends StateTable.State {
  /**
   * State derived from an open (a lock stateid, RFC 8881 §8.2.1): READ and WRITE with such a stateid use the open's
   * access.
   */
  public interface Derived {
    /** The open state this state belongs to. */
    OpenState open();
  }

  private final byte[] owner;
  private final Export export;
  private final long fileid;
  volatile int access;
  volatile int deny;
  /** Guarded by {@link Opens}' monitor. */
  OpenFiles.Pin pin;
  /** Guarded by {@link Opens}' monitor: set once by CLOSE or the client's removal. */
  boolean closed;

  OpenState(ClientRecord client, byte[] owner, Export export, long fileid) {
    super(client);
    this.owner = owner.clone();
    this.export = export;
    this.fileid = fileid;
  }

  /** The open owner's opaque bytes (the client id is {@link #client()}'s). */
  public byte[] owner() {
    return owner.clone();
  }

  /** Whether this state belongs to the open owner {@code o} of its client. */
  public boolean ownedBy(byte[] o) {
    return Arrays.equals(owner, o);
  }

  public Export export() {
    return export;
  }

  /** The file's fileid within its export (the v3 fileid). */
  public long fileid() {
    return fileid;
  }

  /** Whether this open is of the object a filehandle names. */
  public boolean isOf(Export e, long id) {
    return export.id() == e.id() && fileid == id;
  }

  /** OPEN4_SHARE_ACCESS_* held now. */
  public int access() {
    return access;
  }

  /** OPEN4_SHARE_DENY_* held now. */
  public int deny() {
    return deny;
  }

  @Override
  public String toString() {
    return "open " + stateid() + " of " + export.path() + "#" + fileid + " access " + access + " deny " + deny;
  }
}
