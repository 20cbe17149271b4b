package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.17 entryplus3: one READDIRPLUS entry with its attributes and handle.
 *
 * @param nameAttributes post_op_attr, nullable
 * @param nameHandle post_op_fh3, nullable
 */
public record entryplus3(long fileid, String name, long cookie, fattr3 nameAttributes, nfs_fh3 nameHandle)
    implements XdrType {

  public static entryplus3 decode(XdrReader r) {
    return new entryplus3(r.int64(), r.string(Nfs3.MAX_NAME_DECODE), r.int64(), post_op_attr.decode(r),
        post_op_fh3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(fileid).string(name).int64(cookie);
    post_op_attr.encode(w, nameAttributes);
    post_op_fh3.encode(w, nameHandle);
  }

  /** Bytes of this entry that count against READDIRPLUS's dircount (fileid, name, cookie). */
  public static int dirSize(String name) {
    return entry3.size(name);
  }

  /** Encoded size with its list link: what counts against maxcount. */
  public static int size(String name, int handleLength) {
    return entry3.size(name) + post_op_attr.SIZE + 4 + entry3.opaqueSize(handleLength);
  }
}
