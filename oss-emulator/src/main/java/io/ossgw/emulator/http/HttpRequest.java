package io.ossgw.emulator.http;

import java.net.InetSocketAddress;

/**
 * One parsed HTTP request: method, raw target (still percent-encoded), headers and a streaming body.
 *
 * @param method  request method, e.g. {@code GET}
 * @param target  raw request target, e.g. {@code /bucket/a%20b?uploads}
 * @param version {@code HTTP/1.1} or {@code HTTP/1.0}
 * @param headers request headers
 * @param body    body stream (framed; never reads past the request)
 * @param remote  client address
 */
public record HttpRequest(String method, String target, String version, Headers headers,
                          BodyInputStream body, InetSocketAddress remote) {

    /** Raw path: the target up to {@code ?}. */
    public String rawPath() {
        int q = target.indexOf('?');
        return q < 0 ? target : target.substring(0, q);
    }

    /** Raw query after {@code ?}, or null. */
    public String rawQuery() {
        int q = target.indexOf('?');
        return q < 0 ? null : target.substring(q + 1);
    }

    /** Whether the client expects {@code 100 Continue} before sending the body. */
    public boolean expectsContinue() {
        String e = headers.first("Expect");
        return e != null && e.equalsIgnoreCase("100-continue");
    }
}
