package io.ossgw.nfs.xdr;

import java.nio.charset.StandardCharsets;

/**
 * RFC 1813 §3.3.16 entry3: one READDIR entry (the nextentry link is the list encoding of {@link READDIR3res}).
 *
 * @param fileid the entry's file id
 * @param name filename3
 * @param cookie the position to resume after this entry
 */
public record entry3(long fileid, String name, long cookie) implements XdrType {
  public static entry3 decode(XdrReader r) {
    return new entry3(r.int64(), r.string(Nfs3.MAX_NAME_DECODE), r.int64());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(fileid).string(name).int64(cookie);
  }

  /** Encoded size of an entry with this name, with its list link (the bool before it): READDIR's count budget. */
  public static int size(String name) {
    return 4 + 8 + opaqueSize(name.getBytes(StandardCharsets.UTF_8).length) + 8;
  }

  static int opaqueSize(int len) {
    return 4 + ((len + 3) & ~3);
  }
}
