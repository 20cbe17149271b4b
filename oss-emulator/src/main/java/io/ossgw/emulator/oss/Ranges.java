package io.ossgw.emulator.oss;

/**
 * The single-range subset of {@code Range: bytes=...} OSS supports.
 *
 * <p>By default an unparseable, multi-range or out-of-range request is ignored (200, whole object). With
 * {@code x-oss-range-behavior: standard} an end past EOF is clamped, and a start at or past EOF is 416
 * InvalidRange.
 */
final class Ranges {
    private Ranges() {
    }

    /**
     * @param header   the Range header or null
     * @param size     object size in bytes
     * @param standard whether {@code x-oss-range-behavior: standard} was sent
     * @return {@code {first, last}} inclusive byte positions, or null for the whole object
     * @throws OssException InvalidRange (standard behaviour only)
     */
    static long[] resolve(String header, long size, boolean standard) {
        if (header == null) {
            return null;
        }
        String h = header.trim();
        if (!h.regionMatches(true, 0, "bytes=", 0, 6)) {
            return null;
        }
        String spec = h.substring(6).trim();
        int dash = spec.indexOf('-');
        if (spec.contains(",") || dash < 0) {
            return null;
        }
        String a = spec.substring(0, dash).trim();
        String b = spec.substring(dash + 1).trim();
        long first;
        long last;
        try {
            if (a.isEmpty()) {
                if (b.isEmpty()) {
                    return null;
                }
                long n = Long.parseLong(b);
                if (n <= 0 || size == 0) {
                    return unsatisfiable(standard);
                }
                if (n > size && !standard) {
                    return null;
                }
                return new long[] {Math.max(0, size - n), size - 1};
            }
            first = Long.parseLong(a);
            last = b.isEmpty() ? size - 1 : Long.parseLong(b);
        } catch (NumberFormatException e) {
            return null;
        }
        if (first < 0 || last < first) {
            return null;
        }
        if (first >= size) {
            return unsatisfiable(standard);
        }
        if (last >= size) {
            if (!standard) {
                return null;
            }
            last = size - 1;
        }
        return new long[] {first, last};
    }

    private static long[] unsatisfiable(boolean standard) {
        if (standard) {
            throw Errors.invalidRange();
        }
        return null;
    }
}
