package io.ossgw.nfs.xdr;

import java.util.ArrayList;
import java.util.List;

/**
 * RFC 1813 §5.2.2 mountbody: one entry of the DUMP reply; {@link #encodeList}/{@link #decodeList} handle mountlist,
 * the linked list of them.
 *
 * @param hostname the client (name&lt;MNTNAMLEN&gt;)
 * @param directory the path it mounted (dirpath)
 */
public record mountbody(String hostname, String directory) implements XdrType {
  public static mountbody decode(XdrReader r) {
    return new mountbody(r.string(Nfs3.MNTNAMLEN), dirpath.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.string(hostname);
    dirpath.encode(w, directory);
  }

  /** mountlist: {@code mountbody *}, each entry preceded by TRUE, ended by FALSE. */
  public static void encodeList(XdrWriter w, List<mountbody> list) {
    for (mountbody b : list) {
      w.bool(true);
      b.encode(w);
    }
    w.bool(false);
  }

  public static List<mountbody> decodeList(XdrReader r) {
    List<mountbody> out = new ArrayList<>();
    while (r.bool()) {
      out.add(decode(r));
    }
    return out;
  }

  /** The DUMP result as an {@link XdrType}. */
  public record mountlist(List<mountbody> entries) implements XdrType {
    public mountlist {
      entries = List.copyOf(entries);
    }

    public static mountlist decode(XdrReader r) {
      return new mountlist(decodeList(r));
    }

    @Override
    public void encode(XdrWriter w) {
      encodeList(w, entries);
    }
  }
}
