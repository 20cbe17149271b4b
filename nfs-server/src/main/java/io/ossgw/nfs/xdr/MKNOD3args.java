package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.11 MKNOD3args: where, and mknoddata3 {@code union switch (ftype3 type) { case NF3CHR: case NF3BLK:
 * devicedata3; case NF3SOCK: case NF3FIFO: sattr3; default: void }}.
 *
 * @param type ftype3 of the node
 * @param attributes dev_attributes or pipe_attributes, null for other types
 * @param spec device numbers for NF3CHR and NF3BLK, else null
 */
public record MKNOD3args(diropargs3 where, int type, sattr3 attributes, specdata3 spec) implements XdrType {
  public static MKNOD3args decode(XdrReader r) {
    diropargs3 where = diropargs3.decode(r);
    int type = r.enumValue(Nfs3.NF3REG, Nfs3.NF3FIFO);
    return switch (type) {
      case Nfs3.NF3CHR, Nfs3.NF3BLK -> new MKNOD3args(where, type, sattr3.decode(r), specdata3.decode(r));
      case Nfs3.NF3SOCK, Nfs3.NF3FIFO -> new MKNOD3args(where, type, sattr3.decode(r), null);
      default -> new MKNOD3args(where, type, null, null);
    };
  }

  @Override
  public void encode(XdrWriter w) {
    where.encode(w);
    w.int32(type);
    if (attributes != null) {
      attributes.encode(w);
    }
    if (spec != null) {
      spec.encode(w);
    }
  }
}
