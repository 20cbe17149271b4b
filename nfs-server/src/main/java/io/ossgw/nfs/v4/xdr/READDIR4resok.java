package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * RFC 8881 §18.23.2 READDIR4resok: the cookie verifier and a dirlist4 (the entries as an XDR linked list: each
 * preceded by TRUE, the list ended by FALSE, then {@code eof}).
 *
 * @param cookieverf the verifier4 (8 bytes as a long) the client sends back with later cookies of this listing
 */
public record READDIR4resok(long cookieverf, List<entry4> entries, boolean eof) implements XdrType {
  /** Bytes of a READDIR4resok without entries: verifier, the list's end and eof. */
  public static final int EMPTY_SIZE = 8 + 4 + 4;
  /** Bound on entries decoded by clients and tests. */
  private static final int MAX_ENTRIES = 1 << 16;

  public static READDIR4resok decode(XdrReader r) {
    long verf = r.int64();
    List<entry4> out = new ArrayList<>();
    while (r.bool()) {
      if (out.size() == MAX_ENTRIES) {
        throw new io.ossgw.nfs.xdr.XdrException("over " + MAX_ENTRIES + " entries");
      }
      out.add(entry4.decode(r));
    }
    return new READDIR4resok(verf, out, r.bool());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(cookieverf);
    for (entry4 e : entries) {
      w.bool(true);
      e.encode(w);
    }
    w.bool(false).bool(eof);
  }
}
