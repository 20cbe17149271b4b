package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.4.1 createtype4: the type of object CREATE makes, with a symbolic link's target (NF4LNK) or a
 * device's numbers (NF4BLK, NF4CHR). Every other type, NF4REG included, has no body (the union's default arm), so it
 * decodes and CREATE answers NFS4ERR_BADTYPE.
 *
 * @param type an nfs_ftype4
 * @param linkdata the target for NF4LNK as sent (UTF-8 checked by the operation), else null
 * @param devdata the numbers for NF4BLK and NF4CHR, else null
 */
public record createtype4(int type, byte[] linkdata, specdata4 devdata) implements XdrType {
  /** Bound on a linktext4 (a symbolic link's target) decoded: PATH_MAX. */
  public static final int LINKTEXT_LIMIT = 4096;

  public static createtype4 decode(XdrReader r) {
    int type = r.int32();
    return switch (type) {
      case Nfs4.NF4LNK -> new createtype4(type, r.opaque(LINKTEXT_LIMIT), null);
      case Nfs4.NF4BLK, Nfs4.NF4CHR -> new createtype4(type, null, specdata4.decode(r));
      default -> new createtype4(type, null, null);
    };
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(type);
    switch (type) {
      case Nfs4.NF4LNK -> w.opaque(linkdata);
      case Nfs4.NF4BLK, Nfs4.NF4CHR -> devdata.encode(w);
      default -> { }
    }
  }
}
