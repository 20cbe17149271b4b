package io.ossgw.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.emulator.http.HttpStatus;
import io.ossgw.emulator.http.MiniHttpServer;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Issue 9 item 13: an {@link Error} (an OutOfMemoryError in the field) thrown while serving a request refuses that
 * request with 503 and leaves the server serving: the next request succeeds.
 */
class HandlerErrorTest {
    @Test
    void anErrorInAHandlerIsA503AndTheNextRequestSucceeds() throws Exception {
        try (MiniHttpServer server = new MiniHttpServer(InetAddress.getLoopbackAddress(), 0, ex -> {
            if (ex.request().rawPath().equals("/boom")) {
                throw new OutOfMemoryError("Java heap space (test)");
            }
            ex.send(200, "ok".getBytes(StandardCharsets.UTF_8));
        })) {
            server.start();
            assertThat(HttpStatus.get(server.port(), "/boom")).isEqualTo(503);
            assertThat(HttpStatus.get(server.port(), "/ok")).isEqualTo(200);
            assertThat(HttpStatus.get(server.port(), "/boom")).isEqualTo(503);
            assertThat(HttpStatus.get(server.port(), "/ok")).isEqualTo(200);
        }
    }
}
