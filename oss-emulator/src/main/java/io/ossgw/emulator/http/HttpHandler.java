package io.ossgw.emulator.http;

/** Handles one exchange; it must start a response or call {@link HttpExchange#abortConnection()}. */
@FunctionalInterface
public interface HttpHandler {
    /** Handles {@code exchange}; an exception closes the connection (a 500 is sent if nothing was sent yet). */
    void handle(HttpExchange exchange) throws Exception;
}
