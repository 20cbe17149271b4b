package io.ossgw.nfs.xdr;

import java.util.ArrayList;
import java.util.List;

/**
 * RFC 1813 §3.3.16 READDIR3res. READDIR3resok: dir_attributes, cookieverf, reply (dirlist3: a linked list of
 * {@link entry3} and eof); READDIR3resfail: dir_attributes.
 *
 * @param dirAttributes post_op_attr, nullable
 * @param cookieverf the verifier to send with the next page (NFS3_OK only)
 * @param entries the entries of this page (NFS3_OK only)
 * @param eof no entries follow this page
 */
public record READDIR3res(int status, fattr3 dirAttributes, long cookieverf, List<entry3> entries, boolean eof)
    implements XdrType {

  /** Encoded size of a READDIR3resok with no entries (status, attributes, verifier, list end, eof). */
  public static final int EMPTY_OK_SIZE = 4 + post_op_attr.SIZE + 8 + 4 + 4;

  public READDIR3res {
    entries = entries == null ? List.of() : List.copyOf(entries);
  }

  public static READDIR3res fail(int status, fattr3 dirAttributes) {
    return new READDIR3res(status, dirAttributes, 0, List.of(), false);
  }

  public static READDIR3res decode(XdrReader r) {
    int status = r.int32();
    fattr3 a = post_op_attr.decode(r);
    if (status != nfsstat3.NFS3_OK) {
      return fail(status, a);
    }
    long verf = r.int64();
    List<entry3> list = new ArrayList<>();
    while (r.bool()) {
      list.add(entry3.decode(r));
    }
    return new READDIR3res(status, a, verf, list, r.bool());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    post_op_attr.encode(w, dirAttributes);
    if (status == nfsstat3.NFS3_OK) {
      w.int64(cookieverf);
      for (entry3 e : entries) {
        w.bool(true);
        e.encode(w);
      }
      w.bool(false).bool(eof);
    }
  }
}
