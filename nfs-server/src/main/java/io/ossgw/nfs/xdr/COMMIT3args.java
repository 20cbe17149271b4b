package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.21 COMMIT3args.
 *
 * @param offset start of the range to commit
 * @param count bytes to commit; 0 means to the end of the file
 */
public record COMMIT3args(nfs_fh3 file, long offset, int count) implements XdrType {
  public static COMMIT3args decode(XdrReader r) {
    return new COMMIT3args(nfs_fh3.decode(r), r.int64(), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    file.encode(w);
    w.int64(offset).int32(count);
  }
}
