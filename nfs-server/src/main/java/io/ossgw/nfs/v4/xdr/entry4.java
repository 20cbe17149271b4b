package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.v4.Component4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;
import java.nio.charset.StandardCharsets;

/**
 * RFC 8881 §18.23.2 entry4 without its {@code nextentry} link (the list is {@link READDIR4resok}'s): a directory
 * entry's cookie, name and requested attributes.
 *
 * @param name the component4 bytes (UTF-8)
 */
public record entry4(long cookie, byte[] name, fattr4 attrs) implements XdrType {
  /** Decodes a name of at most {@link Component4#READ_LIMIT} bytes (clients and tests). */
  public static entry4 decode(XdrReader r) {
    return new entry4(r.int64(), Component4.read(r), fattr4.decode(r));
  }

  public String nameString() {
    return new String(name, StandardCharsets.UTF_8);
  }

  /** Bytes of the cookie and name as encoded: what RFC 8881's dircount counts. */
  public static int dirSize(int nameBytes) {
    return 8 + 4 + pad(nameBytes);
  }

  /**
   * Bytes an entry adds to a READDIR4resok: the "value follows" word of the list link, cookie, name and attributes.
   */
  public static int size(int nameBytes, fattr4 attrs) {
    return 4 + dirSize(nameBytes) + 4 * (1 + attrs.attrmask().words().length) + 4 + pad(attrs.attrVals().length);
  }

  private static int pad(int n) {
    return (n + 3) & ~3;
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(cookie).opaque(name);
    attrs.encode(w);
  }
}
