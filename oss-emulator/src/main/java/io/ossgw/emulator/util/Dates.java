package io.ossgw.emulator.util;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** The two date formats OSS uses: RFC 1123 in headers, ISO 8601 with {@code .000Z} in XML bodies. */
public final class Dates {
    private static final DateTimeFormatter RFC1123 =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter ISO =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'.000Z'", Locale.US).withZone(ZoneOffset.UTC);

    private Dates() {
    }

    /** {@code Tue, 22 Nov 2026 10:51:05 GMT} for epoch milliseconds (seconds precision, as HTTP dates). */
    public static String rfc1123(long epochMillis) {
        return RFC1123.format(Instant.ofEpochMilli(epochMillis));
    }

    /** {@code 2026-11-22T10:51:05.000Z}: OSS always prints zero milliseconds in listings. */
    public static String iso8601(long epochMillis) {
        return ISO.format(Instant.ofEpochMilli(epochMillis));
    }

    /** Parses an HTTP date (RFC 1123); returns epoch millis or -1 if it cannot be parsed. */
    public static long parseHttpDate(String value) {
        if (value == null) {
            return -1;
        }
        try {
            return ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            return -1;
        }
    }
}
