package io.ossgw.emulator.util;

import java.util.HexFormat;

/** Hex helpers: OSS ETags are upper-case hex MD5, V4 signatures lower-case hex. */
public final class Hex {
    private static final HexFormat UPPER = HexFormat.of().withUpperCase();
    private static final HexFormat LOWER = HexFormat.of();

    private Hex() {
    }

    /** Upper-case hex of {@code bytes}. */
    public static String upper(byte[] bytes) {
        return UPPER.formatHex(bytes);
    }

    /** Lower-case hex of {@code bytes}. */
    public static String lower(byte[] bytes) {
        return LOWER.formatHex(bytes);
    }

    /** Parses hex of either case; throws IllegalArgumentException on bad input. */
    public static byte[] parse(String hex) {
        return LOWER.parseHex(hex.toLowerCase(java.util.Locale.ROOT));
    }
}
