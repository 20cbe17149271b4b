package io.ossgw.emulator;

import io.ossgw.testsupport.Slowdown;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** A minimal keep-alive HTTP/1.1 client over one socket, to test wire behaviour the SDK hides. */
final class RawHttp implements Closeable {
    private final Socket socket;
    private final BufferedInputStream in;
    private final OutputStream out;

    /** A parsed response; header names lower case. */
    record Response(int status, Map<String, String> headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    RawHttp(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout((int) Slowdown.scaledMillis(10_000));
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Sends {@code head} (request line and headers, CRLF-separated, without the final blank line) and a body. */
    Response send(String head, byte[] body, boolean isHead) throws IOException {
        out.write((head + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        if (body != null) {
            out.write(body);
        }
        out.flush();
        return read(isHead);
    }

    Response read(boolean isHead) throws IOException {
        String status = line();
        if (status == null) {
            throw new IOException("connection closed");
        }
        Map<String, String> headers = new TreeMap<>();
        String h;
        while (!(h = line()).isEmpty()) {
            int c = h.indexOf(':');
            headers.put(h.substring(0, c).trim().toLowerCase(Locale.ROOT), h.substring(c + 1).trim());
        }
        int code = Integer.parseInt(status.split(" ")[1]);
        byte[] body = new byte[0];
        if (!isHead && code != 204 && code != 304 && headers.containsKey("content-length")) {
            body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
        }
        return new Response(code, headers, body);
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                String s = b.toString(StandardCharsets.ISO_8859_1);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            b.write(c);
        }
        return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
    }

    InputStream input() {
        return in;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
