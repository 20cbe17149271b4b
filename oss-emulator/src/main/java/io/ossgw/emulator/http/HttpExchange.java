package io.ossgw.emulator.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One request/response pair on a connection.
 *
 * <p>Responses always carry an exact {@code Content-Length} (no chunked replies are needed: every OSS
 * reply size is known up front). Before the status line is written the unread part of the request body
 * is drained, up to {@link #DRAIN_LIMIT}; past that, or when the client is still waiting for
 * {@code 100 Continue}, the reply says {@code Connection: close} and the connection is closed after it.
 */
public final class HttpExchange {
    /** Most request-body bytes drained to keep a connection alive after an early reply (64 MiB). */
    public static final long DRAIN_LIMIT = 64L * 1024 * 1024;
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final Map<Integer, String> REASONS = Map.ofEntries(
            Map.entry(100, "Continue"), Map.entry(200, "OK"), Map.entry(204, "No Content"),
            Map.entry(206, "Partial Content"), Map.entry(304, "Not Modified"), Map.entry(400, "Bad Request"),
            Map.entry(403, "Forbidden"), Map.entry(404, "Not Found"), Map.entry(405, "Method Not Allowed"),
            Map.entry(409, "Conflict"), Map.entry(411, "Length Required"), Map.entry(412, "Precondition Failed"),
            Map.entry(416, "Requested Range Not Satisfiable"), Map.entry(429, "Too Many Requests"),
            Map.entry(500, "Internal Server Error"), Map.entry(501, "Not Implemented"),
            Map.entry(502, "Bad Gateway"), Map.entry(503, "Service Unavailable"), Map.entry(504, "Gateway Timeout"));

    private final Socket socket;
    private final HttpRequest request;
    private final OutputStream out;
    private final List<String[]> headers = new ArrayList<>();
    private final InputStream body;
    private boolean continueSent;
    private boolean responded;
    private boolean close;
    private long declared = -1;
    private long written;
    private boolean aborted;
    private boolean discard;
    private boolean clientFailed;

    HttpExchange(Socket socket, HttpRequest request, OutputStream out, boolean keepAlive) {
        this.socket = socket;
        this.request = request;
        this.out = out;
        this.close = !keepAlive;
        this.body = new ContinueOnRead();
    }

    /** The request. */
    public HttpRequest request() {
        return request;
    }

    /** Request body; the first read sends {@code 100 Continue} when the client asked for it. */
    public InputStream requestBody() {
        return body;
    }

    /** Body bytes read from the client so far, drained ones included. */
    public long bytesReceived() {
        return request.body().consumed();
    }

    /** Response body bytes written so far. */
    public long bytesSent() {
        return written;
    }

    /** Whether a response (or an abort) has been started. */
    public boolean responded() {
        return responded || aborted;
    }

    /**
     * Whether reading the request or writing the response failed on the connection (the client went away or sent a
     * malformed body): such an exchange cannot be answered, unlike a failure of the server's own storage.
     */
    public boolean clientFailed() {
        return clientFailed;
    }

    /**
     * Fault injection of a lost reply: the request is still read and carried out, but what would be sent is
     * discarded; the caller then {@link #abortConnection() resets} the connection.
     */
    public void discardReply() {
        discard = true;
    }

    /** Adds a response header (before the response starts). */
    public HttpExchange header(String name, String value) {
        headers.add(new String[] {name, value});
        return this;
    }

    /** Sends a complete response with {@code body} (may be empty). */
    public void send(int status, byte[] body) throws IOException {
        try (OutputStream os = begin(status, body.length, false)) {
            os.write(body);
        }
    }

    /**
     * Starts a response whose body is streamed by the caller.
     *
     * @param contentLength exact body length in bytes; the caller must write exactly that many
     * @param headOnly      send the headers (with this Content-Length) but no body, as for HEAD
     * @return the body stream (a no-op sink when {@code headOnly})
     */
    public OutputStream begin(int status, long contentLength, boolean headOnly) throws IOException {
        if (responded) {
            throw new IllegalStateException("response already started");
        }
        responded = true;
        if (discard) {
            declared = headOnly || status == 204 || status == 304 ? 0 : contentLength;
            return new FixedSink();
        }
        BodyInputStream reqBody = request.body();
        if (!reqBody.finished()) {
            if (request.expectsContinue() && !continueSent) {
                close = true; // the client will not send the body; the connection cannot be reused
            } else if (!client(() -> reqBody.drain(DRAIN_LIMIT))) {
                close = true;
            }
        }
        StringBuilder sb = new StringBuilder(512);
        sb.append("HTTP/1.1 ").append(status).append(' ').append(REASONS.getOrDefault(status, "Status")).append("\r\n");
        for (String[] h : headers) {
            sb.append(h[0]).append(": ").append(h[1]).append("\r\n");
        }
        sb.append("Content-Length: ").append(contentLength).append("\r\n");
        sb.append("Connection: ").append(close ? "close" : "keep-alive").append("\r\n\r\n");
        byte[] head = sb.toString().getBytes(StandardCharsets.UTF_8);
        declared = headOnly || status == 204 || status == 304 ? 0 : contentLength;
        client(() -> {
            out.write(head);
            if (declared == 0) {
                out.flush();
            }
            return null;
        });
        return new FixedSink();
    }

    /** One step of socket I/O; a failure marks the exchange {@link #clientFailed()}. */
    private <T> T client(IoStep<T> step) throws IOException {
        try {
            return step.run();
        } catch (IOException | RuntimeException e) {
            clientFailed = true;
            throw e;
        }
    }

    @FunctionalInterface
    private interface IoStep<T> {
        T run() throws IOException;
    }

    /**
     * Closes the connection abruptly without a reply (TCP RST via SO_LINGER 0): fault injection of
     * connection resets.
     */
    public void abortConnection() {
        aborted = true;
        try {
            socket.setSoLinger(true, 0);
            socket.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    boolean aborted() {
        return aborted;
    }

    /** True if the connection may carry another request after this exchange. */
    boolean reusable() {
        return !close && !aborted && responded && written == declared;
    }

    private final class FixedSink extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (written + len > declared) {
                throw new IOException("response body longer than Content-Length");
            }
            if (!discard) {
                try {
                    out.write(b, off, len);
                } catch (IOException e) {
                    clientFailed = true;
                    throw e;
                }
            }
            written += len;
        }

        @Override
        public void flush() throws IOException {
            if (!discard) {
                client(() -> {
                    out.flush();
                    return null;
                });
            }
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

    private final class ContinueOnRead extends InputStream {
        private void maybeContinue() throws IOException {
            if (!continueSent && request.expectsContinue() && !responded) {
                continueSent = true;
                client(() -> {
                    out.write(CONTINUE);
                    out.flush();
                    return null;
                });
            }
        }

        @Override
        public int read() throws IOException {
            maybeContinue();
            return client(() -> request.body().read());
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            maybeContinue();
            try {
                return request.body().read(b, off, len);
            } catch (IOException e) {
                clientFailed = true;
                throw e;
            }
        }

        @Override
        public int available() throws IOException {
            return client(() -> request.body().available());
        }
    }
}
