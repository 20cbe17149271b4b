package io.ossgw.emulator.oss;

import io.ossgw.emulator.storage.BucketState;
import io.ossgw.emulator.storage.NewMeta;
import io.ossgw.emulator.storage.ObjectMeta;
import io.ossgw.emulator.storage.ObjectStore;
import io.ossgw.emulator.util.Crc64;
import io.ossgw.emulator.util.Dates;
import io.ossgw.emulator.util.Hex;
import io.ossgw.emulator.util.UriCodec;
import io.ossgw.emulator.util.Xml;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.NoSuchFileException;
import java.util.Base64;

/**
 * Single-object operations: PutObject, GetObject, HeadObject, GetObjectMeta, DeleteObject, AppendObject,
 * CopyObject, GetObjectAcl and PutObjectAcl (reference/oss-api.md §2.2).
 */
final class ObjectHandler {
    /** CopyObject limit: larger sources need UploadPartCopy. */
    static final long MAX_COPY_SIZE = 1L << 30;
    private static final int BUFFER = 256 * 1024;

    private final ObjectStore store;

    ObjectHandler(ObjectStore store) {
        this.store = store;
    }

    private static boolean forbidOverwrite(OssRequest r) {
        return "true".equalsIgnoreCase(r.header("x-oss-forbid-overwrite"));
    }

    private ObjectMeta require(BucketState b, String key) {
        ObjectMeta m = store.head(b, key);
        if (m == null) {
            throw Errors.noSuchKey(key);
        }
        return m;
    }

    void put(OssRequest r, BucketState b) throws IOException {
        NewMeta meta = ObjectHeaders.fromRequest(r.headers());
        ObjectMeta m = store.put(b, r.key(), r.body(), r.contentLength(), meta, r.contentMd5(), forbidOverwrite(r));
        r.header("ETag", ObjectHeaders.quote(m.etag()));
        r.header("Content-MD5", Base64.getEncoder().encodeToString(Hex.parse(m.etag())));
        r.header("x-oss-hash-crc64ecma", Crc64.toWire(m.crc64()));
        r.empty(200);
    }

    /** GetObject, or HeadObject when {@code head}. */
    void get(OssRequest r, BucketState b, boolean head) throws IOException {
        ObjectMeta m = require(b, r.key());
        Preconditions.Outcome o = Preconditions.check(m, r.header("If-Match"), r.header("If-None-Match"),
                r.header("If-Modified-Since"), r.header("If-Unmodified-Since"), false);
        if (o == Preconditions.Outcome.NOT_MODIFIED) {
            r.header("ETag", ObjectHeaders.quote(m.etag()));
            r.header("Last-Modified", Dates.rfc1123(m.lastModified()));
            r.stream(304, 0, true).close();
            return;
        }
        if (head) {
            ObjectHeaders.write(r, m);
            r.stream(200, m.size(), true).close();
            return;
        }
        boolean standard = "standard".equalsIgnoreCase(r.header("x-oss-range-behavior"));
        long[] range = Ranges.resolve(r.header("Range"), m.size(), standard);
        InputStream in = null;
        for (int attempt = 0; in == null; attempt++) {
            long off = range == null ? 0 : range[0];
            long len = range == null ? m.size() : range[1] - range[0] + 1;
            try {
                in = m.blob().open(off, len);
            } catch (NoSuchFileException e) {
                // replaced by a concurrent writer between lookup and open: read the new version
                if (attempt >= 3) {
                    throw e;
                }
                m = require(b, r.key());
                range = Ranges.resolve(r.header("Range"), m.size(), standard);
            }
        }
        try (InputStream body = in) {
            ObjectHeaders.write(r, m);
            int status = 200;
            long len = m.size();
            if (range != null) {
                status = 206;
                len = range[1] - range[0] + 1;
                r.header("Content-Range", "bytes " + range[0] + "-" + range[1] + "/" + m.size());
            }
            OutputStream out = r.stream(status, len, false);
            byte[] buf = new byte[(int) Math.min(BUFFER, Math.max(1, len))];
            long left = len;
            while (left > 0) {
                int n = body.read(buf, 0, (int) Math.min(buf.length, left));
                if (n < 0) {
                    throw new IOException("object content ended early");
                }
                out.write(buf, 0, n);
                left -= n;
            }
            out.flush();
        }
    }

    /** GetObjectMeta ({@code HEAD ?objectMeta}): size, ETag and Last-Modified only. */
    void objectMeta(OssRequest r, BucketState b) throws IOException {
        ObjectMeta m = require(b, r.key());
        r.header("ETag", ObjectHeaders.quote(m.etag()));
        r.header("Last-Modified", Dates.rfc1123(m.lastModified()));
        r.header("x-oss-hash-crc64ecma", Crc64.toWire(m.crc64()));
        r.stream(200, m.size(), true).close();
    }

    void delete(OssRequest r, BucketState b) throws IOException {
        store.delete(b, r.key());
        r.empty(204);
    }

    void append(OssRequest r, BucketState b) throws IOException {
        String pos = r.param("position");
        if (pos == null) {
            throw Errors.invalidArgument("The position parameter is required for AppendObject.", "position", null);
        }
        long position;
        try {
            position = Long.parseLong(pos);
        } catch (NumberFormatException e) {
            position = -1;
        }
        if (position < 0) {
            throw Errors.invalidArgument("Invalid position.", "position", pos);
        }
        ObjectMeta m = store.append(b, r.key(), position, r.body(), r.contentLength(),
                ObjectHeaders.fromRequest(r.headers()), r.contentMd5());
        r.header("ETag", ObjectHeaders.quote(m.etag()));
        r.header("x-oss-next-append-position", Long.toString(m.size()));
        r.header("x-oss-hash-crc64ecma", Crc64.toWire(m.crc64()));
        r.empty(200);
    }

    /** Source object named by {@code x-oss-copy-source} ({@code /bucket/urlencoded-key}), checked for the copy-source conditions. */
    ObjectMeta copySource(OssRequest r) {
        String raw = r.header("x-oss-copy-source");
        int q = raw.indexOf('?');
        String decoded;
        try {
            decoded = UriCodec.decode(q >= 0 ? raw.substring(0, q) : raw);
        } catch (IllegalArgumentException e) {
            throw Errors.invalidArgument("Invalid x-oss-copy-source.", "x-oss-copy-source", raw);
        }
        String s = decoded.startsWith("/") ? decoded.substring(1) : decoded;
        int slash = s.indexOf('/');
        if (slash <= 0 || slash == s.length() - 1) {
            throw Errors.invalidArgument("Invalid x-oss-copy-source.", "x-oss-copy-source", raw);
        }
        String srcBucket = s.substring(0, slash);
        String srcKey = s.substring(slash + 1);
        BucketState sb = store.bucket(srcBucket);
        if (sb == null) {
            throw Errors.noSuchBucket(srcBucket);
        }
        ObjectMeta src = require(sb, srcKey);
        Preconditions.check(src, r.header("x-oss-copy-source-if-match"), r.header("x-oss-copy-source-if-none-match"),
                r.header("x-oss-copy-source-if-modified-since"), r.header("x-oss-copy-source-if-unmodified-since"), true);
        return src;
    }

    static String sourceBucket(OssRequest r) {
        String d = UriCodec.decode(r.header("x-oss-copy-source").split("\\?", 2)[0]);
        String s = d.startsWith("/") ? d.substring(1) : d;
        return s.substring(0, s.indexOf('/'));
    }

    void copy(OssRequest r, BucketState b) throws IOException {
        ObjectMeta src = copySource(r);
        if (src.size() > MAX_COPY_SIZE) {
            throw Errors.invalidArgument("The source object of CopyObject must not be larger than 1 GB; use UploadPartCopy.",
                    "x-oss-copy-source", r.header("x-oss-copy-source"));
        }
        String directive = r.header("x-oss-metadata-directive");
        if (directive != null && !directive.equals("COPY") && !directive.equals("REPLACE")) {
            throw Errors.invalidArgument("Invalid x-oss-metadata-directive.", "x-oss-metadata-directive", directive);
        }
        boolean same = sourceBucket(r).equals(b.name()) && src.key().equals(r.key());
        // A copy onto itself takes the request's metadata whatever the directive (OSS, versioning off).
        NewMeta meta = same || "REPLACE".equals(directive) ? ObjectHeaders.fromRequest(r.headers()) : NewMeta.of(src);
        ObjectMeta m = store.copy(src, b, r.key(), meta, forbidOverwrite(r), same);
        r.header("x-oss-hash-crc64ecma", Crc64.toWire(m.crc64()));
        r.xml(200, new Xml("CopyObjectResult").elem("ETag", ObjectHeaders.quote(m.etag()))
                .elem("LastModified", Dates.iso8601(m.lastModified())).toBytes());
    }

    void getAcl(OssRequest r, BucketState b) throws IOException {
        require(b, r.key());
        Xml x = new Xml("AccessControlPolicy");
        BucketHandler.owner(x, "Owner");
        x.start("AccessControlList").elem("Grant", "default").end();
        r.xml(200, x.toBytes());
    }

    void putAcl(OssRequest r, BucketState b) throws IOException {
        require(b, r.key());
        r.empty(200);
    }
}
