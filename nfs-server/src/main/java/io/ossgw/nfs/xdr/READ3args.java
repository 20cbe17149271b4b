package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.6 READ3args.
 *
 * @param offset byte offset (offset3, unsigned; negative values lie beyond any file)
 * @param count bytes asked for (count3, unsigned)
 */
public record READ3args(nfs_fh3 file, long offset, int count) implements XdrType {
  public static READ3args decode(XdrReader r) {
    return new READ3args(nfs_fh3.decode(r), r.int64(), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    file.encode(w);
    w.int64(offset).int32(count);
  }
}
