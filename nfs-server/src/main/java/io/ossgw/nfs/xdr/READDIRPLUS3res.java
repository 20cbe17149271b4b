package io.ossgw.nfs.xdr;

import java.util.ArrayList;
import java.util.List;

/**
 * RFC 1813 §3.3.17 READDIRPLUS3res. READDIRPLUS3resok: dir_attributes, cookieverf, reply (dirlistplus3);
 * READDIRPLUS3resfail: dir_attributes.
 */
public record READDIRPLUS3res(int status, fattr3 dirAttributes, long cookieverf, List<entryplus3> entries,
    boolean eof) implements XdrType {

  public READDIRPLUS3res {
    entries = entries == null ? List.of() : List.copyOf(entries);
  }

  public static READDIRPLUS3res fail(int status, fattr3 dirAttributes) {
    return new READDIRPLUS3res(status, dirAttributes, 0, List.of(), false);
  }

  public static READDIRPLUS3res decode(XdrReader r) {
    int status = r.int32();
    fattr3 a = post_op_attr.decode(r);
    if (status != nfsstat3.NFS3_OK) {
      return fail(status, a);
    }
    long verf = r.int64();
    List<entryplus3> list = new ArrayList<>();
    while (r.bool()) {
      list.add(entryplus3.decode(r));
    }
    return new READDIRPLUS3res(status, a, verf, list, r.bool());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    post_op_attr.encode(w, dirAttributes);
    if (status == nfsstat3.NFS3_OK) {
      w.int64(cookieverf);
      for (entryplus3 e : entries) {
        w.bool(true);
        e.encode(w);
      }
      w.bool(false).bool(eof);
    }
  }
}
