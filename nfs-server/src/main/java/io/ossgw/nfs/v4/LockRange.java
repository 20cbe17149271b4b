package io.ossgw.nfs.v4;

import io.ossgw.core.lock.LockTable;
import io.ossgw.core.lock.LockTable.FileKey;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.LOCK4denied;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.lock_owner4;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * What LOCK, LOCKT and LOCKU share (RFC 8881 §18.10-18.12): the range checks, the lock type, the file a filehandle
 * names in the lock table, and the LOCK4denied of a conflicting lock.
 *
 * @param start first byte, 0..2^63-1
 * @param end last byte, inclusive, {@link LockTable#TO_EOF} for "to the end of the file"
 */
record LockRange(long start, long end) {
  /**
   * The range of {@code length} bytes at {@code offset} (both unsigned 64-bit, as sent).
   *
   * @throws Nfs4Exception NFS4ERR_INVAL for a length of 0 or a range past 2^64-1 with a length other than all ones
   *     (§18.10.3), NFS4ERR_BAD_RANGE for an offset past 2^63-1: the lock table (and the Linux VFS, and every file
   *     here) counts bytes in signed 64 bits, and the RFC lets a server refuse ranges it cannot represent that way
   */
  static LockRange of(long offset, long length) {
    if (length == 0 || (length != -1L && Long.compareUnsigned(length - 1, -1L - offset) > 0)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "lock range " + Long.toUnsignedString(offset) + "+"
          + Long.toUnsignedString(length));
    }
    if (offset < 0) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BAD_RANGE, "lock offset " + Long.toUnsignedString(offset) + " past 2^63-1");
    }
    // all ones, or bytes past 2^63-1 (which no file here can have): to the end of the file
    long last = offset + length - 1;
    return new LockRange(offset, length == -1L || last < 0 ? LockTable.TO_EOF : last);
  }

  /** READ_LT and READW_LT are shared, WRITE_LT and WRITEW_LT exclusive. */
  static LockTable.Mode mode(int locktype) {
    return locktype == Nfs4.WRITE_LT || locktype == Nfs4.WRITEW_LT ? LockTable.Mode.EXCLUSIVE
        : LockTable.Mode.SHARED;
  }

  /**
   * The file a filehandle names, keyed as NLM keys it (export id, fileid), so v3 and v4 locks meet.
   *
   * @throws Nfs4Exception NFS4ERR_ISDIR for a pseudo file system node (a directory)
   */
  static FileKey file(V4Target t) {
    if (t.pseudo()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ISDIR, "byte-range locks are only on files");
    }
    return new FileKey(t.export().id(), t.fileid());
  }

  /**
   * NFS4ERR_DENIED with the conflicting lock. An NFSv4 holder is shown as its client id and lock owner; a holder of
   * another front end (an NLM client) as client id 0 and an owner naming it, "nlm:" + the NLM client
   * (caller_name@address) + ":" + its svid and owner handle, so LOCKT tells who holds the lock.
   */
  static Nfs4Exception denied(LockTable.Lock holder) {
    long length = holder.end() == LockTable.TO_EOF ? -1L : holder.end() - holder.start() + 1;
    int type = holder.mode() == LockTable.Mode.EXCLUSIVE ? Nfs4.WRITE_LT : Nfs4.READ_LT;
    LOCK4denied d = new LOCK4denied(holder.start(), length, type, owner(holder.owner()));
    return new Nfs4Exception(Nfs4.NFS4ERR_DENIED, "held by " + holder.owner(), d);
  }

  private static lock_owner4 owner(LockTable.Owner o) {
    if (o.client().startsWith(LockState.CLIENT_PREFIX)) {
      try {
        return new lock_owner4(Long.parseUnsignedLong(o.client().substring(LockState.CLIENT_PREFIX.length()), 16),
            HexFormat.of().parseHex(o.id()));
      } catch (IllegalArgumentException e) {
        // not one of ours after all: shown by name below
      }
    }
    byte[] name = ("nlm:" + o.client() + ":" + o.id()).getBytes(StandardCharsets.UTF_8);
    return new lock_owner4(0, Arrays.copyOf(name, Math.min(name.length, Nfs4.NFS4_OPAQUE_LIMIT)));
  }
}
