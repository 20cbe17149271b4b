package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;
import java.util.List;

/**
 * RFC 8881 §16.2.1 COMPOUND4args: tag, minor version, operations. Encode only (tests and clients); the server reads
 * the header and then one operation at a time ({@code v4.Compound}).
 *
 * @param tag utf8str_cs echoed in the reply, at most {@link Nfs4#TAG_LIMIT} bytes
 */
public record COMPOUND4args(byte[] tag, int minorversion, List<nfs_argop4> argarray) implements XdrType {
  @Override
  public void encode(XdrWriter w) {
    w.opaque(tag).int32(minorversion).int32(argarray.size());
    for (nfs_argop4 op : argarray) {
      op.encode(w);
    }
  }
}
