package io.ossgw.nfs.handle;

import io.ossgw.nfs.xdr.nfs_fh3;
import java.nio.ByteBuffer;

/**
 * The NFSv3 file handle format: 25 bytes, well under RFC 1813's 64.
 *
 * <pre>
 *  0      version (1)
 *  1..4   export id (big-endian)
 *  5..12  fileid
 * 13..16  generation of the fileid
 * 17..24  SipHash-2-4 of bytes 0..16 under the server's secret (persisted with the inode table)
 * </pre>
 *
 * Everything a handle needs to be resolved after a restart is in it and in the persistent {@link
 * io.ossgw.core.inode.InodeTable}; the MAC makes forged or corrupted handles NFS3ERR_BADHANDLE rather than a lookup.
 */
public final class FileHandles {
  /** Handle length in bytes. */
  public static final int LENGTH = 25;
  static final byte VERSION = 1;

  private final SipHash mac;

  /** @param secret 16 bytes */
  public FileHandles(byte[] secret) {
    this.mac = new SipHash(secret);
  }

  /** A handle's decoded fields. */
  public record Decoded(int exportId, long fileid, int generation) {}

  public nfs_fh3 encode(int exportId, long fileid, int generation) {
    byte[] b = new byte[LENGTH];
    ByteBuffer.wrap(b).put(VERSION).putInt(exportId).putLong(fileid).putInt(generation);
    ByteBuffer.wrap(b, 17, 8).putLong(mac.hash(b, 0, 17));
    return new nfs_fh3(b);
  }

  /** The fields of a handle this server made, or null if it is malformed or its MAC does not match. */
  public Decoded decode(nfs_fh3 fh) {
    byte[] b = fh.data();
    if (b.length != LENGTH || b[0] != VERSION) {
      return null;
    }
    ByteBuffer bb = ByteBuffer.wrap(b);
    if (bb.getLong(17) != mac.hash(b, 0, 17)) {
      return null;
    }
    return new Decoded(bb.getInt(1), bb.getLong(5), bb.getInt(13));
  }
}
