package io.ossgw.emulator.util;

/**
 * CRC-64/XZ (ECMA-182 polynomial, reflected, init and xorout all ones): the checksum OSS returns in
 * {@code x-oss-hash-crc64ecma} as an unsigned decimal.
 *
 * <p>Values are "finished" CRCs, so {@link #update(long, byte[], int, int)} can continue from the CRC of
 * a prefix (that is how AppendObject keeps a running CRC), and {@link #combine(long, long, long)} joins
 * the CRCs of two adjacent pieces (multipart complete) without reading the data again.
 * Slicing-by-8 keeps it near memory speed, since the emulator's throughput is part of benchmark ceilings.
 */
public final class Crc64 {
    /** Reflected ECMA-182 polynomial. */
    private static final long POLY = 0xC96C5795D7870F42L;
    private static final long[][] TABLE = new long[8][256];

    static {
        for (int n = 0; n < 256; n++) {
            long crc = n;
            for (int k = 0; k < 8; k++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ POLY : crc >>> 1;
            }
            TABLE[0][n] = crc;
        }
        for (int n = 0; n < 256; n++) {
            long crc = TABLE[0][n];
            for (int k = 1; k < 8; k++) {
                crc = TABLE[0][(int) (crc & 0xff)] ^ (crc >>> 8);
                TABLE[k][n] = crc;
            }
        }
    }

    private Crc64() {
    }

    /**
     * Continues a finished CRC over {@code len} more bytes.
     *
     * @param crc CRC of the data so far (0 for empty data)
     * @return CRC of the data so far followed by {@code buf[off, off+len)}
     */
    public static long update(long crc, byte[] buf, int off, int len) {
        long c = ~crc;
        int i = off;
        int end = off + len;
        long[] t0 = TABLE[0], t1 = TABLE[1], t2 = TABLE[2], t3 = TABLE[3];
        long[] t4 = TABLE[4], t5 = TABLE[5], t6 = TABLE[6], t7 = TABLE[7];
        while (end - i >= 8) {
            c ^= (buf[i] & 0xffL) | (buf[i + 1] & 0xffL) << 8 | (buf[i + 2] & 0xffL) << 16
                    | (buf[i + 3] & 0xffL) << 24 | (buf[i + 4] & 0xffL) << 32 | (buf[i + 5] & 0xffL) << 40
                    | (buf[i + 6] & 0xffL) << 48 | (buf[i + 7] & 0xffL) << 56;
            c = t7[(int) (c & 0xff)] ^ t6[(int) ((c >>> 8) & 0xff)] ^ t5[(int) ((c >>> 16) & 0xff)]
                    ^ t4[(int) ((c >>> 24) & 0xff)] ^ t3[(int) ((c >>> 32) & 0xff)]
                    ^ t2[(int) ((c >>> 40) & 0xff)] ^ t1[(int) ((c >>> 48) & 0xff)] ^ t0[(int) (c >>> 56)];
            i += 8;
        }
        while (i < end) {
            c = t0[(int) ((c ^ buf[i++]) & 0xff)] ^ (c >>> 8);
        }
        return ~c;
    }

    /** CRC of a whole array. */
    public static long of(byte[] buf) {
        return update(0, buf, 0, buf.length);
    }

    /**
     * CRC of A followed by B, given crc(A), crc(B) and the length of B in bytes (zlib's GF(2) matrix method).
     */
    public static long combine(long crcA, long crcB, long lenB) {
        if (lenB <= 0) {
            return crcA;
        }
        long[] even = new long[64];
        long[] odd = new long[64];
        odd[0] = POLY; // operator for one zero bit
        long row = 1;
        for (int n = 1; n < 64; n++) {
            odd[n] = row;
            row <<= 1;
        }
        square(even, odd); // two zero bits
        square(odd, even); // four zero bits
        long a = crcA;
        long len = lenB;
        do {
            square(even, odd);
            if ((len & 1) != 0) {
                a = times(even, a);
            }
            len >>>= 1;
            if (len == 0) {
                break;
            }
            square(odd, even);
            if ((len & 1) != 0) {
                a = times(odd, a);
            }
            len >>>= 1;
        } while (len != 0);
        return a ^ crcB;
    }

    private static long times(long[] mat, long vec) {
        long sum = 0;
        int i = 0;
        while (vec != 0) {
            if ((vec & 1) != 0) {
                sum ^= mat[i];
            }
            vec >>>= 1;
            i++;
        }
        return sum;
    }

    private static void square(long[] square, long[] mat) {
        for (int n = 0; n < 64; n++) {
            square[n] = times(mat, mat[n]);
        }
    }

    /** Unsigned decimal form used on the wire. */
    public static String toWire(long crc) {
        return Long.toUnsignedString(crc);
    }
}
