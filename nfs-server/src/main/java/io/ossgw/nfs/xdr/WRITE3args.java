package io.ossgw.nfs.xdr;

import java.nio.ByteBuffer;

/**
 * RFC 1813 §3.3.7 WRITE3args.
 *
 * @param offset byte offset (unsigned)
 * @param count bytes to write (should equal the data's length)
 * @param stable stable_how: {@link Nfs3#UNSTABLE}, {@link Nfs3#DATA_SYNC}, {@link Nfs3#FILE_SYNC}
 * @param data the bytes; when decoded by the server, a slice of the receive buffer valid until the reply
 */
public record WRITE3args(nfs_fh3 file, long offset, int count, int stable, ByteBuffer data) implements XdrType {
  /** Largest data decoded: the rtmax/wtmax this server announces. */
  public static final int MAX_DATA = 1 << 20;

  public static WRITE3args decode(XdrReader r) {
    return new WRITE3args(nfs_fh3.decode(r), r.int64(), r.int32(), r.enumValue(Nfs3.UNSTABLE, Nfs3.FILE_SYNC),
        r.bytes(MAX_DATA));
  }

  @Override
  public void encode(XdrWriter w) {
    file.encode(w);
    w.int64(offset).int32(count).int32(stable).bytes(data.duplicate());
  }
}
