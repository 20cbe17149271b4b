package io.ossgw.nfs.export;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An IPv4 or IPv6 network in CIDR form ({@code 10.0.0.0/8}, {@code 192.168.1.7}, {@code fd00::/8}), or {@code *}
 * for every address. IPv4-mapped IPv6 client addresses ({@code ::ffff:10.1.2.3}) match IPv4 networks.
 *
 * @param network the network address bytes (4 or 16), or null for {@code *}
 * @param prefix the prefix length in bits
 */
public record Cidr(byte[] network, int prefix) {
  /** Every client. */
  public static final Cidr ANY = new Cidr(null, 0);

  /**
   * Parses {@code "*"}, {@code "a.b.c.d"}, {@code "a.b.c.d/n"}, an IPv6 address, or an IPv6 address with {@code /n}.
   * Host names are refused: a CIDR never needs a DNS lookup.
   *
   * @throws IllegalArgumentException for anything else, naming the text
   */
  public static Cidr parse(String text) {
    String t = text.strip();
    if (t.equals("*")) {
      return ANY;
    }
    int slash = t.indexOf('/');
    String addr = slash < 0 ? t : t.substring(0, slash);
    if (!addr.matches("[0-9a-fA-F:.]+") || !(addr.contains(".") || addr.contains(":"))) {
      throw new IllegalArgumentException("not an IP address or CIDR: '" + text + "'");
    }
    byte[] bytes;
    try {
      bytes = InetAddress.getByName(addr).getAddress(); // a literal: no lookup
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("not an IP address or CIDR: '" + text + "'");
    }
    int bits = bytes.length * 8;
    int prefix = bits;
    if (slash >= 0) {
      try {
        prefix = Integer.parseInt(t.substring(slash + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("bad prefix length in '" + text + "'");
      }
      if (prefix < 0 || prefix > bits) {
        throw new IllegalArgumentException("prefix length out of range in '" + text + "'");
      }
    }
    return new Cidr(mask(bytes, prefix), prefix);
  }

  /** True if {@code a} lies in this network. */
  public boolean matches(InetAddress a) {
    if (network == null) {
      return true;
    }
    byte[] b = a.getAddress();
    if (a instanceof Inet6Address && network.length == 4 && isMappedV4(b)) {
      b = java.util.Arrays.copyOfRange(b, 12, 16);
    }
    if (b.length != network.length) {
      return false;
    }
    return java.util.Arrays.equals(mask(b, prefix), network);
  }

  private static boolean isMappedV4(byte[] b) {
    for (int i = 0; i < 10; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
  }

  private static byte[] mask(byte[] addr, int prefix) {
    byte[] out = addr.clone();
    for (int i = 0; i < out.length; i++) {
      int keep = Math.max(0, Math.min(8, prefix - i * 8));
      out[i] &= (byte) (0xff << (8 - keep));
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Cidr c && c.prefix == prefix && java.util.Arrays.equals(c.network, network);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(network) * 31 + prefix;
  }

  /** The CIDR text ({@code "10.0.0.0/8"}, {@code "*"}). */
  @Override
  public String toString() {
    if (network == null) {
      return "*";
    }
    try {
      InetAddress a = network.length == 4 ? Inet4Address.getByAddress(network) : Inet6Address.getByAddress(network);
      return a.getHostAddress() + "/" + prefix;
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }
}
