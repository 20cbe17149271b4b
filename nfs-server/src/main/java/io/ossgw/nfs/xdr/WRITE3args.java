package io.ossgw.nfs.xdr;

import java.nio.ByteBuffer;

/**
 * RFC 1813 §3.3.7 WRITE3args.
 *
 * @param offset byte offset (unsigned)
 * @param count bytes to write (should equal the data's length)
 * @param stable stable_how: {@link Nfs3#UNSTABLE}, {@link Nfs3#DATA_SYNC}, {@link Nfs3#FILE_SYNC}
 * @param data the bytes; when decoded by the server, views of the receive buffers valid until the call ends
 */
public record WRITE3args(nfs_fh3 file, long offset, int count, int stable, Payload data) implements XdrType {
  /** Largest data decoded: the rtmax/wtmax this server announces. */
  public static final int MAX_DATA = 1 << 20;

  /** With the data in one buffer (clients, tests). */
  public WRITE3args(nfs_fh3 file, long offset, int count, int stable, ByteBuffer data) {
    this(file, offset, count, stable, Payload.of(data));
  }

  public static WRITE3args decode(XdrReader r) {
    return new WRITE3args(nfs_fh3.decode(r), r.int64(), r.int32(), r.enumValue(Nfs3.UNSTABLE, Nfs3.FILE_SYNC),
        r.payload(MAX_DATA));
  }

  @Override
  public void encode(XdrWriter w) {
    file.encode(w);
    w.int64(offset).int32(count).int32(stable).payload(data);
  }
}
