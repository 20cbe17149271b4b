package io.ossgw.emulator.oss;

import io.ossgw.emulator.http.Headers;
import io.ossgw.emulator.storage.NewMeta;
import io.ossgw.emulator.storage.ObjectMeta;
import io.ossgw.emulator.storage.ObjectType;
import io.ossgw.emulator.util.Crc64;
import io.ossgw.emulator.util.Dates;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Object metadata to and from HTTP headers. */
final class ObjectHeaders {
    /** Standard headers OSS stores with an object and returns on GET/HEAD. */
    static final List<String> STORED = List.of("Cache-Control", "Content-Disposition", "Content-Encoding",
            "Content-Language", "Expires");

    private ObjectHeaders() {
    }

    /** Metadata from a PutObject / Initiate / Append / CopyObject(REPLACE) request. */
    static NewMeta fromRequest(Headers h) {
        String ct = h.first("Content-Type");
        SortedMap<String, String> user = new TreeMap<>();
        for (Map.Entry<String, List<String>> e : h.asMap().entrySet()) {
            if (e.getKey().startsWith("x-oss-meta-")) {
                user.put(e.getKey().substring("x-oss-meta-".length()), String.join(",", e.getValue()));
            }
        }
        SortedMap<String, String> std = new TreeMap<>();
        for (String name : STORED) {
            String v = h.first(name);
            if (v != null) {
                std.put(name, v);
            }
        }
        String sc = h.first("x-oss-storage-class");
        return new NewMeta(ct == null || ct.isBlank() ? "application/octet-stream" : ct, user, std,
                sc == null || sc.isBlank() ? "Standard" : sc);
    }

    /** The headers GET and HEAD return for {@code m} (without Content-Length). */
    static void write(OssRequest r, ObjectMeta m) {
        String ct = r.param("response-content-type");
        r.header("Content-Type", ct != null ? ct : m.contentType());
        r.header("ETag", quote(m.etag()));
        r.header("Last-Modified", Dates.rfc1123(m.lastModified()));
        r.header("Accept-Ranges", "bytes");
        r.header("x-oss-object-type", m.type().name());
        r.header("x-oss-storage-class", m.storageClass());
        r.header("x-oss-hash-crc64ecma", Crc64.toWire(m.crc64()));
        if (m.type() == ObjectType.Appendable) {
            r.header("x-oss-next-append-position", Long.toString(m.size()));
        }
        for (Map.Entry<String, String> e : m.headers().entrySet()) {
            String override = r.param("response-" + e.getKey().toLowerCase(Locale.ROOT));
            if (override == null) {
                r.header(e.getKey(), e.getValue());
            }
        }
        for (String name : STORED) {
            String override = r.param("response-" + name.toLowerCase(Locale.ROOT));
            if (override != null) {
                r.header(name, override);
            }
        }
        for (Map.Entry<String, String> e : m.userMeta().entrySet()) {
            r.header("x-oss-meta-" + e.getKey(), e.getValue());
        }
    }

    /** {@code "ETAG"}. */
    static String quote(String etag) {
        return "\"" + etag + "\"";
    }

    /** An ETag as a client sent it, without quotes or {@code W/}. */
    static String unquote(String etag) {
        String t = etag.trim();
        if (t.startsWith("W/")) {
            t = t.substring(2);
        }
        if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
            t = t.substring(1, t.length() - 1);
        }
        return t;
    }
}
