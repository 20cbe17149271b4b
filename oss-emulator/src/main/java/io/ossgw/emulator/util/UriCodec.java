package io.ossgw.emulator.util;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Percent-encoding as OSS uses it.
 *
 * <p>Decoding never turns {@code +} into a space: the SDKs send spaces as {@code %20} and a literal
 * {@code +} is a legal key character. Encoding follows RFC 3986 (only {@code A-Z a-z 0-9 - _ . ~} stay
 * as they are), which is what the V4 canonical request and {@code encoding-type=url} listings need.
 */
public final class UriCodec {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private UriCodec() {
    }

    /**
     * Decodes {@code %XX} escapes as UTF-8.
     *
     * @throws IllegalArgumentException on a malformed escape or bytes that are not valid UTF-8
     */
    public static String decode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    throw new IllegalArgumentException("bad percent escape");
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("bad percent escape");
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else if (c < 0x80) {
                out.write(c);
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    b = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                out.writeBytes(b);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(out.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("not UTF-8", e);
        }
    }

    /**
     * RFC 3986 encoding of the UTF-8 bytes of {@code s}.
     *
     * @param keepSlash leave {@code /} unencoded (V4 canonical URI, listing keys)
     */
    public static String encode(String s, boolean keepSlash) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(bytes.length + 16);
        for (byte value : bytes) {
            int b = value & 0xff;
            if ((b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9')
                    || b == '-' || b == '_' || b == '.' || b == '~' || (keepSlash && b == '/')) {
                sb.append((char) b);
            } else {
                sb.append('%').append(HEX[b >> 4]).append(HEX[b & 0xf]);
            }
        }
        return sb.toString();
    }
}
