package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.24.2 READLINK4resok: the link's target (linktext4, UTF-8; at most {@link createtype4#LINKTEXT_LIMIT}
 * bytes when decoded).
 */
public record READLINK4resok(String link) implements XdrType {
  public static READLINK4resok decode(XdrReader r) {
    return new READLINK4resok(r.string(createtype4.LINKTEXT_LIMIT));
  }

  @Override
  public void encode(XdrWriter w) {
    w.string(link);
  }
}
