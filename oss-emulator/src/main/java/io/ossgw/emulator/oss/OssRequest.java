package io.ossgw.emulator.oss;

import io.ossgw.emulator.auth.SigningInput;
import io.ossgw.emulator.http.Headers;
import io.ossgw.emulator.http.HttpExchange;
import io.ossgw.emulator.util.Dates;
import io.ossgw.emulator.util.Xml;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * An OSS request as the handlers see it: bucket and decoded key (from the path or, in virtual-hosted
 * style, from {@code Host: bucket.<base>}), decoded query parameters, and the reply helpers that add the
 * headers every OSS reply carries ({@code x-oss-request-id}, {@code Date}, {@code Server}).
 */
public final class OssRequest {
    private final HttpExchange ex;
    private final String bucket;
    private final String key;
    private final List<Map.Entry<String, String>> params;
    private final String requestId;
    private final String hostId;
    private String operation = "Unknown";

    OssRequest(HttpExchange ex, String bucket, String key, List<Map.Entry<String, String>> params, String requestId,
               String hostId) {
        this.ex = ex;
        this.bucket = bucket;
        this.key = key;
        this.params = params;
        this.requestId = requestId;
        this.hostId = hostId;
    }

    /** Parses a raw query string; a parameter without {@code =} gets a null value. */
    static List<Map.Entry<String, String>> parseQuery(String raw) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String part : raw.split("&")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String name = io.ossgw.emulator.util.UriCodec.decode(eq < 0 ? part : part.substring(0, eq));
            String value = eq < 0 ? null : io.ossgw.emulator.util.UriCodec.decode(part.substring(eq + 1));
            out.add(new AbstractMap.SimpleImmutableEntry<>(name, value));
        }
        return out;
    }

    public HttpExchange exchange() {
        return ex;
    }

    public String method() {
        return ex.request().method();
    }

    /** Bucket name, or null for service-level requests. */
    public String bucket() {
        return bucket;
    }

    /** Decoded key, or null for bucket-level requests. */
    public String key() {
        return key;
    }

    public Headers headers() {
        return ex.request().headers();
    }

    public String header(String name) {
        return ex.request().headers().first(name);
    }

    public String requestId() {
        return requestId;
    }

    public String operation() {
        return operation;
    }

    void operation(String op) {
        this.operation = op;
    }

    /** Whether query parameter {@code name} is present (with or without a value). */
    public boolean has(String name) {
        for (Map.Entry<String, String> p : params) {
            if (p.getKey().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** Value of query parameter {@code name}; null if absent or valueless. */
    public String param(String name) {
        for (Map.Entry<String, String> p : params) {
            if (p.getKey().equals(name)) {
                return p.getValue();
            }
        }
        return null;
    }

    /** Signature input for this request. */
    public SigningInput signingInput() {
        return new SigningInput(method(), bucket, key, params, headers());
    }

    /** Request body (sends 100 Continue when needed). */
    public InputStream body() {
        return ex.requestBody();
    }

    /** Declared Content-Length, or -1 when absent or chunked. */
    public long contentLength() {
        String cl = header("Content-Length");
        if (cl == null || header("Transfer-Encoding") != null) {
            return -1;
        }
        try {
            return Long.parseLong(cl.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Reads a small body (XML documents) up to {@code max} bytes, else MalformedXML / InvalidArgument. */
    public byte[] smallBody(int max) throws IOException {
        byte[] b = body().readNBytes(max + 1);
        if (b.length > max) {
            throw Errors.invalidArgument("Request body is too large.", "body", null);
        }
        return b;
    }

    /** Decoded Content-MD5 header, or null if absent; InvalidDigest if not base64 of 16 bytes. */
    public byte[] contentMd5() {
        String v = header("Content-MD5");
        if (v == null) {
            return null;
        }
        try {
            byte[] d = Base64.getDecoder().decode(v.trim());
            if (d.length != 16) {
                throw new IllegalArgumentException();
            }
            return d;
        } catch (IllegalArgumentException e) {
            throw Errors.invalidDigest("The Content-MD5 you specified is not valid.");
        }
    }

    // ---- replies ------------------------------------------------------------------------------

    private void common() {
        ex.header("Server", "AliyunOSS");
        ex.header("Date", Dates.rfc1123(System.currentTimeMillis()));
        ex.header("x-oss-request-id", requestId);
    }

    /** Adds a response header. */
    public OssRequest header(String name, String value) {
        ex.header(name, value);
        return this;
    }

    /** Sends an XML body. */
    public void xml(int status, byte[] body) throws IOException {
        common();
        ex.header("Content-Type", "application/xml");
        ex.send(status, body);
    }

    /** Sends a reply without body. */
    public void empty(int status) throws IOException {
        common();
        ex.send(status, new byte[0]);
    }

    /** Sends a JSON body (admin endpoints). */
    public void json(int status, String body) throws IOException {
        common();
        ex.header("Content-Type", "application/json");
        ex.send(status, body.getBytes(StandardCharsets.UTF_8));
    }

    /** Starts a streamed body of {@code length} bytes (or headers only for HEAD). */
    public OutputStream stream(int status, long length, boolean headOnly) throws IOException {
        common();
        return ex.begin(status, length, headOnly);
    }

    /** Sends an OSS error: XML body, or for HEAD no body and the XML base64-encoded in {@code x-oss-err}. */
    public void error(OssException e) throws IOException {
        Xml x = new Xml("Error").elem("Code", e.code()).elem("Message", e.getMessage())
                .elem("RequestId", requestId).elem("HostId", hostId);
        e.elements().forEach(x::elem);
        if (e.ec() != null) {
            x.elem("EC", e.ec());
        }
        byte[] body = x.toBytes();
        e.headers().forEach(ex::header);
        if (e.ec() != null) {
            ex.header("x-oss-ec", e.ec());
        }
        common();
        ex.header("Content-Type", "application/xml");
        if ("HEAD".equals(method())) {
            ex.header("x-oss-err", Base64.getEncoder().encodeToString(body));
            ex.begin(e.status(), 0, true).close();
        } else {
            ex.send(e.status(), body);
        }
    }
}
