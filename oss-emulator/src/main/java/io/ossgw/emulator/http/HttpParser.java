package io.ossgw.emulator.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** Parses an HTTP/1.x request head (request line and headers) from a buffered stream. */
final class HttpParser {
    /** Upper bound for the request line and for each header line (keys are ≤1023 bytes, ×3 when escaped). */
    static final int MAX_LINE = 64 * 1024;
    private static final int MAX_HEADERS = 200;

    private HttpParser() {
    }

    /** Thrown for a request head that cannot be parsed; the connection is answered 400 and closed. */
    static final class BadRequest extends IOException {
        BadRequest(String msg) {
            super(msg);
        }
    }

    /**
     * Reads one line terminated by CRLF (or a bare LF), without the terminator, as ISO-8859-1 (raw bytes;
     * header values are decoded as UTF-8 later where it matters).
     *
     * @return the line, or null at end of stream before any byte
     */
    static String readLine(InputStream in, int max) throws IOException {
        byte[] buf = new byte[Math.min(max, 256)];
        int len = 0;
        while (true) {
            int c = in.read();
            if (c < 0) {
                if (len == 0) {
                    return null;
                }
                throw new IOException("connection closed mid-line");
            }
            if (c == '\n') {
                if (len > 0 && buf[len - 1] == '\r') {
                    len--;
                }
                return new String(buf, 0, len, StandardCharsets.ISO_8859_1);
            }
            if (len == buf.length) {
                if (len >= max) {
                    throw new BadRequest("line too long");
                }
                buf = java.util.Arrays.copyOf(buf, Math.min(max, len * 2));
            }
            buf[len++] = (byte) c;
        }
    }

    /**
     * Reads the next request head; empty lines before it are skipped (RFC 9112 §2.2).
     *
     * @return the request with its body stream attached, or null when the client closed the connection
     */
    static HttpRequest read(InputStream in, InetSocketAddress remote) throws IOException {
        String line;
        do {
            line = readLine(in, MAX_LINE);
            if (line == null) {
                return null;
            }
        } while (line.isEmpty());
        String[] parts = line.split(" ");
        if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
            throw new BadRequest("bad request line");
        }
        Headers headers = new Headers();
        int count = 0;
        while (true) {
            String h = readLine(in, MAX_LINE);
            if (h == null) {
                throw new IOException("connection closed in headers");
            }
            if (h.isEmpty()) {
                break;
            }
            if (++count > MAX_HEADERS) {
                throw new BadRequest("too many headers");
            }
            int colon = h.indexOf(':');
            if (colon <= 0) {
                throw new BadRequest("bad header line");
            }
            String value = new String(h.substring(colon + 1).trim().getBytes(StandardCharsets.ISO_8859_1),
                    StandardCharsets.UTF_8);
            headers.add(h.substring(0, colon).trim(), value);
        }
        BodyInputStream body;
        String te = headers.first("Transfer-Encoding");
        String cl = headers.first("Content-Length");
        if (te != null && te.toLowerCase(java.util.Locale.ROOT).contains("chunked")) {
            body = new BodyInputStream.Chunked(in);
        } else if (cl != null) {
            long n;
            try {
                n = Long.parseLong(cl.trim());
            } catch (NumberFormatException e) {
                throw new BadRequest("bad Content-Length");
            }
            if (n < 0) {
                throw new BadRequest("bad Content-Length");
            }
            body = n == 0 ? new BodyInputStream.Empty() : new BodyInputStream.Fixed(in, n);
        } else {
            body = new BodyInputStream.Empty();
        }
        return new HttpRequest(parts[0], parts[1], parts[2], headers, body, remote);
    }
}
