package io.ossgw.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.emulator.http.MiniHttpServer;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Issue 9 item 13: an {@link Error} (an OutOfMemoryError in the field) thrown while serving a request refuses that
 * request with 503 and leaves the server serving: the next request succeeds.
 */
class HandlerErrorTest {
    private static int status(int port, String path) throws Exception {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + path).toURL().openConnection();
        c.setConnectTimeout(5000);
        c.setReadTimeout(5000);
        try {
            return c.getResponseCode();
        } finally {
            c.disconnect();
        }
    }

    @Test
    void anErrorInAHandlerIsA503AndTheNextRequestSucceeds() throws Exception {
        try (MiniHttpServer server = new MiniHttpServer(InetAddress.getLoopbackAddress(), 0, ex -> {
            if (ex.request().rawPath().equals("/boom")) {
                throw new OutOfMemoryError("Java heap space (test)");
            }
            ex.send(200, "ok".getBytes(StandardCharsets.UTF_8));
        })) {
            server.start();
            assertThat(status(server.port(), "/boom")).isEqualTo(503);
            assertThat(status(server.port(), "/ok")).isEqualTo(200);
            assertThat(status(server.port(), "/boom")).isEqualTo(503);
            assertThat(status(server.port(), "/ok")).isEqualTo(200);
        }
    }
}
