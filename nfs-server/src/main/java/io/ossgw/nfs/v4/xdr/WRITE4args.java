package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.Payload;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;
import java.nio.ByteBuffer;

/**
 * RFC 8881 §18.32.1 WRITE4args.
 *
 * @param offset offset4 (unsigned)
 * @param stable stable_how4: UNSTABLE4, DATA_SYNC4, FILE_SYNC4
 * @param data the bytes; when decoded by the server, views of the receive buffers valid until the call ends
 */
public record WRITE4args(stateid4 stateid, long offset, int stable, Payload data) implements XdrType {
  /** Largest data decoded: the maxwrite this server announces (1 MiB). */
  public static final int MAX_DATA = 1 << 20;

  /** With the data in one buffer (clients, tests). */
  public WRITE4args(stateid4 stateid, long offset, int stable, ByteBuffer data) {
    this(stateid, offset, stable, Payload.of(data));
  }

  public static WRITE4args decode(XdrReader r) {
    return new WRITE4args(stateid4.decode(r), r.int64(), r.enumValue(Nfs4.UNSTABLE4, Nfs4.FILE_SYNC4),
        r.payload(MAX_DATA));
  }

  @Override
  public void encode(XdrWriter w) {
    stateid.encode(w);
    w.int64(offset).int32(stable).payload(data);
  }
}
