package io.ossgw.core.store.aliyun;

import java.nio.charset.StandardCharsets;

/**
 * Percent-decoding of listing results requested with {@code encoding-type=url} (the SDK 3.18.5 does not decode v1/v2
 * listings itself, reference/oss-api.md §2.2). Unlike {@code URLDecoder}, a '+' stays a '+': OSS encodes a space as
 * {@code %20}, so a literal plus must survive.
 */
public final class KeyCodec {
  private KeyCodec() {}

  /** Percent-decodes {@code s} (UTF-8); null stays null. */
  public static String decode(String s) {
    if (s == null || s.indexOf('%') < 0) {
      return s;
    }
    // ASCII characters go straight to the byte buffer (a listing decodes every key: no String per character)
    byte[] out = new byte[s.length() * 3];
    int n = 0;
    for (int i = 0; i < s.length(); ) {
      char c = s.charAt(i);
      if (c == '%' && i + 2 < s.length() && isHex(s.charAt(i + 1)) && isHex(s.charAt(i + 2))) {
        out[n++] = (byte) (Character.digit(s.charAt(i + 1), 16) * 16 + Character.digit(s.charAt(i + 2), 16));
        i += 3;
      } else if (c < 0x80) {
        out[n++] = (byte) c;
        i++;
      } else {
        int cp = s.codePointAt(i);
        byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
        System.arraycopy(b, 0, out, n, b.length);
        n += b.length;
        i += Character.charCount(cp);
      }
    }
    return new String(out, 0, n, StandardCharsets.UTF_8);
  }

  private static boolean isHex(char c) {
    return Character.digit(c, 16) >= 0;
  }
}
