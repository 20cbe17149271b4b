package io.ossgw.core.store.aliyun;

import java.io.ByteArrayOutputStream;
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
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
    for (int i = 0; i < s.length(); ) {
      char c = s.charAt(i);
      if (c == '%' && i + 2 < s.length() && isHex(s.charAt(i + 1)) && isHex(s.charAt(i + 2))) {
        out.write(Character.digit(s.charAt(i + 1), 16) * 16 + Character.digit(s.charAt(i + 2), 16));
        i += 3;
      } else {
        int cp = s.codePointAt(i);
        byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
        i += Character.charCount(cp);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static boolean isHex(char c) {
    return Character.digit(c, 16) >= 0;
  }
}
