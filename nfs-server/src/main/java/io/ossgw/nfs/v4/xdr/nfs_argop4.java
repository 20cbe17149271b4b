package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §16.2.1 nfs_argop4: an operation number and its arguments. Encode only: the server decodes operations one
 * at a time as it runs them ({@code v4.Compound}), so an undecodable operation after a failed one is never read.
 *
 * @param args the operation's arguments, null for operations without any (and for raw test payloads)
 */
public record nfs_argop4(int op, XdrType args) implements XdrType {
  @Override
  public void encode(XdrWriter w) {
    w.int32(op);
    if (args != null) {
      args.encode(w);
    }
  }
}
