package io.ossgw.emulator.http;

import io.ossgw.testsupport.Slowdown;
import java.net.HttpURLConnection;
import java.net.URI;

/** The status code of a plain GET of {@code path} on 127.0.0.1:{@code port} (5 s to connect and to read). */
public final class HttpStatus {
    private HttpStatus() {}

    public static int get(int port, String path) throws Exception {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + path).toURL().openConnection();
        c.setConnectTimeout((int) Slowdown.scaledMillis(5000));
        c.setReadTimeout((int) Slowdown.scaledMillis(5000));
        try {
            return c.getResponseCode();
        } finally {
            c.disconnect();
        }
    }
}
