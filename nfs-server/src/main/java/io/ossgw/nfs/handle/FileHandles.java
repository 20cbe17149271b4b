package io.ossgw.nfs.handle;

import io.ossgw.nfs.xdr.nfs_fh3;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The NFSv3 file handle formats (also NFSv4.1's, byte for byte), both within RFC 1813's 64 bytes.
 *
 * <p>A recorded handle, 25 bytes, for an object the {@link io.ossgw.core.inode.InodeTable} holds (fileid to path):
 *
 * <pre>
 *  0      version (1)
 *  1..4   export id (big-endian)
 *  5..12  fileid
 * 13..16  generation of the fileid
 * 17..24  SipHash-2-4 of bytes 0..16 under the server's secret (persisted with the inode table)
 * </pre>
 *
 * <p>A named handle, 30 to 64 bytes, for a file the table has never recorded (so its generation is 1): it names the
 * file by its recorded parent directory and its name, so that handing it out (READDIRPLUS, LOOKUP) writes nothing to
 * the table (issue 21: a million listed entries are a million random B-tree writes otherwise):
 *
 * <pre>
 *  0          version (2)
 *  1..4       export id
 *  5..12      fileid
 * 13..20      fileid of the parent directory (a recorded one)
 * 21..21+n-1  the file's name, UTF-8, 1 to {@link #MAX_NAME} bytes
 * 21+n..+7    SipHash-2-4 of the bytes before it
 * </pre>
 *
 * Everything a handle needs to be resolved after a restart is in it and in the persistent table ({@link
 * HandleIssuer}); the MAC makes forged or corrupted handles NFS3ERR_BADHANDLE rather than a lookup.
 */
public final class FileHandles {
  /** Handle length in bytes. */
  public static final int LENGTH = 25;
  static final byte VERSION = 1;
  static final byte NAMED = 2;
  /** The longest name (UTF-8 bytes) a named handle carries: 64 - 21 - 8. */
  public static final int MAX_NAME = 35;
  private static final int NAMED_FIXED = 21 + 8;

  private final SipHash mac;

  /** @param secret 16 bytes */
  public FileHandles(byte[] secret) {
    this.mac = new SipHash(secret);
  }

  /**
   * A handle's decoded fields.
   *
   * @param parentFileid the parent directory's fileid of a named handle, else 0
   * @param name the file's name in a named handle, else null
   */
  public record Decoded(int exportId, long fileid, int generation, long parentFileid, String name) {}

  public nfs_fh3 encode(int exportId, long fileid, int generation) {
    byte[] b = new byte[LENGTH];
    ByteBuffer.wrap(b).put(VERSION).putInt(exportId).putLong(fileid).putInt(generation);
    ByteBuffer.wrap(b, 17, 8).putLong(mac.hash(b, 0, 17));
    return new nfs_fh3(b);
  }

  /**
   * A named handle (generation 1), or null if the name does not fit ({@link #MAX_NAME} UTF-8 bytes).
   *
   * @param name the file's name (one path component)
   */
  public nfs_fh3 encodeNamed(int exportId, long fileid, long parentFileid, String name) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    if (n.length == 0 || n.length > MAX_NAME) {
      return null;
    }
    byte[] b = new byte[NAMED_FIXED + n.length];
    ByteBuffer.wrap(b).put(NAMED).putInt(exportId).putLong(fileid).putLong(parentFileid).put(n);
    ByteBuffer.wrap(b, b.length - 8, 8).putLong(mac.hash(b, 0, b.length - 8));
    return new nfs_fh3(b);
  }

  /** The fields of a handle this server made, or null if it is malformed or its MAC does not match. */
  public Decoded decode(nfs_fh3 fh) {
    byte[] b = fh.data();
    ByteBuffer bb = ByteBuffer.wrap(b);
    if (b.length == LENGTH && b[0] == VERSION) {
      if (bb.getLong(17) != mac.hash(b, 0, 17)) {
        return null;
      }
      return new Decoded(bb.getInt(1), bb.getLong(5), bb.getInt(13), 0, null);
    }
    if (b.length > NAMED_FIXED && b.length <= NAMED_FIXED + MAX_NAME && b[0] == NAMED) {
      if (bb.getLong(b.length - 8) != mac.hash(b, 0, b.length - 8)) {
        return null;
      }
      String name = new String(b, 21, b.length - NAMED_FIXED, StandardCharsets.UTF_8);
      return new Decoded(bb.getInt(1), bb.getLong(5), 1, bb.getLong(13), name);
    }
    return null;
  }
}
