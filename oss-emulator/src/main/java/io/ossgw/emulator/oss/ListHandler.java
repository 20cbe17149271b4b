package io.ossgw.emulator.oss;

import io.ossgw.emulator.storage.BucketState;
import io.ossgw.emulator.storage.ObjectMeta;
import io.ossgw.emulator.storage.ObjectStore;
import io.ossgw.emulator.storage.Upload;
import io.ossgw.emulator.util.Dates;
import io.ossgw.emulator.util.UriCodec;
import io.ossgw.emulator.util.Xml;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** ListObjects (v1), ListObjectsV2, DeleteMultipleObjects and ListMultipartUploads. */
final class ListHandler {
    private final ObjectStore store;

    ListHandler(ObjectStore store) {
        this.store = store;
    }

    /** {@code max-keys}-style parameter: default {@code def}, allowed 1..1000. */
    static int limit(OssRequest r, String name, int def) {
        String v = r.param(name);
        if (v == null) {
            return def;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 1 && n <= 1000) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw Errors.invalidArgument("Argument " + name + " must be an integer between 1 and 1000.", name, v);
    }

    private static boolean urlEncoding(OssRequest r) {
        return "url".equalsIgnoreCase(r.param("encoding-type"));
    }

    private static String enc(boolean url, String s) {
        return s == null || !url ? s : UriCodec.encode(s, true);
    }

    private static void contents(Xml x, ObjectMeta m, boolean url, boolean owner) {
        x.start("Contents").elem("Key", enc(url, m.key())).elem("LastModified", Dates.iso8601(m.lastModified()))
                .elem("ETag", ObjectHeaders.quote(m.etag())).elem("Type", m.type().name()).elem("Size", m.size())
                .elem("StorageClass", m.storageClass());
        if (owner) {
            BucketHandler.owner(x, "Owner");
        }
        x.end();
    }

    private static void commonPrefixes(Xml x, List<String> prefixes, boolean url) {
        for (String p : prefixes) {
            x.start("CommonPrefixes").elem("Prefix", enc(url, p)).end();
        }
    }

    void listV1(OssRequest r, BucketState b) throws IOException {
        String prefix = r.param("prefix") == null ? "" : r.param("prefix");
        String delimiter = r.param("delimiter");
        String marker = r.param("marker");
        int max = limit(r, "max-keys", 100);
        boolean url = urlEncoding(r);
        Listing page = Listing.page(b.objects(), prefix, delimiter, marker == null || marker.isEmpty() ? null : marker, max);
        Xml x = new Xml("ListBucketResult").elem("Name", b.name()).elem("Prefix", enc(url, prefix))
                .elem("Marker", enc(url, marker == null ? "" : marker)).elem("MaxKeys", max)
                .elem("Delimiter", enc(url, delimiter == null ? "" : delimiter));
        if (url) {
            x.elem("EncodingType", "url");
        }
        x.elem("IsTruncated", page.truncated());
        if (page.truncated()) {
            x.elem("NextMarker", enc(url, page.last()));
        }
        page.contents().forEach(m -> contents(x, m, url, true));
        commonPrefixes(x, page.prefixes(), url);
        r.xml(200, x.toBytes());
    }

    void listV2(OssRequest r, BucketState b) throws IOException {
        String prefix = r.param("prefix") == null ? "" : r.param("prefix");
        String delimiter = r.param("delimiter");
        String startAfter = r.param("start-after");
        String token = r.param("continuation-token");
        int max = limit(r, "max-keys", 100);
        boolean url = urlEncoding(r);
        boolean owner = "true".equalsIgnoreCase(r.param("fetch-owner"));
        String after = startAfter == null || startAfter.isEmpty() ? null : startAfter;
        if (token != null && !token.isEmpty()) {
            String resume;
            try {
                resume = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw Errors.invalidArgument("The continuation token provided is incorrect.", "continuation-token", token);
            }
            if (after == null || io.ossgw.emulator.storage.KeyOrder.INSTANCE.compare(resume, after) > 0) {
                after = resume;
            }
        }
        Listing page = Listing.page(b.objects(), prefix, delimiter, after, max);
        Xml x = new Xml("ListBucketResult").elem("Name", b.name()).elem("Prefix", enc(url, prefix));
        if (startAfter != null) {
            x.elem("StartAfter", enc(url, startAfter));
        }
        if (token != null) {
            x.elem("ContinuationToken", token);
        }
        x.elem("MaxKeys", max).elem("Delimiter", enc(url, delimiter == null ? "" : delimiter));
        if (url) {
            x.elem("EncodingType", "url");
        }
        x.elem("IsTruncated", page.truncated());
        if (page.truncated()) {
            x.elem("NextContinuationToken",
                    Base64.getUrlEncoder().withoutPadding().encodeToString(page.last().getBytes(StandardCharsets.UTF_8)));
        }
        x.elem("KeyCount", page.contents().size() + page.prefixes().size());
        page.contents().forEach(m -> contents(x, m, url, owner));
        commonPrefixes(x, page.prefixes(), url);
        r.xml(200, x.toBytes());
    }

    void deleteMultiple(OssRequest r, BucketState b) throws IOException {
        byte[] md5 = r.contentMd5();
        if (md5 == null) {
            throw Errors.missingArgument("Missing required header for this request: Content-MD5", "Content-MD5");
        }
        byte[] body = r.smallBody(4 * 1024 * 1024);
        if (!Arrays.equals(md5, ObjectStoreDigest.md5(body))) {
            throw Errors.invalidDigest("The Content-MD5 you specified did not match what we received.");
        }
        Document doc;
        try {
            doc = Xml.parse(body);
        } catch (IllegalArgumentException e) {
            throw Errors.malformedXml("The XML you provided was not well-formed or did not validate against our published schema.");
        }
        Element root = doc.getDocumentElement();
        boolean quiet = false;
        NodeList q = root.getElementsByTagName("Quiet");
        if (q.getLength() > 0) {
            quiet = "true".equalsIgnoreCase(q.item(0).getTextContent().trim());
        }
        NodeList objects = root.getElementsByTagName("Object");
        if (!"Delete".equals(root.getTagName()) || objects.getLength() == 0 || objects.getLength() > 1000) {
            throw Errors.malformedXml("The XML you provided was not well-formed or did not validate against our published schema.");
        }
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < objects.getLength(); i++) {
            NodeList k = ((Element) objects.item(i)).getElementsByTagName("Key");
            if (k.getLength() == 0) {
                throw Errors.malformedXml("Object without Key.");
            }
            keys.add(k.item(0).getTextContent());
        }
        boolean url = urlEncoding(r);
        Xml x = new Xml("DeleteResult");
        if (url) {
            x.elem("EncodingType", "url");
        }
        for (String key : keys) {
            store.delete(b, key);
            if (!quiet) {
                x.start("Deleted").elem("Key", enc(url, key)).end();
            }
        }
        r.xml(200, x.toBytes());
    }

    /** ListMultipartUploads ({@code GET /b/?uploads}): prefix, key-marker, upload-id-marker, max-uploads; no delimiter grouping. */
    void listUploads(OssRequest r, BucketState b) throws IOException {
        String prefix = r.param("prefix") == null ? "" : r.param("prefix");
        String keyMarker = r.param("key-marker") == null ? "" : r.param("key-marker");
        String idMarker = r.param("upload-id-marker") == null ? "" : r.param("upload-id-marker");
        int max = limit(r, "max-uploads", 1000);
        boolean url = urlEncoding(r);
        Comparator<Upload> order = Comparator.comparing(Upload::key, io.ossgw.emulator.storage.KeyOrder.INSTANCE)
                .thenComparing(Upload::uploadId);
        List<Upload> all = b.uploads().values().stream().filter(u -> u.key().startsWith(prefix))
                .filter(u -> keyMarker.isEmpty() || u.key().compareTo(keyMarker) > 0
                        || u.key().equals(keyMarker) && !idMarker.isEmpty() && u.uploadId().compareTo(idMarker) > 0)
                .sorted(order).toList();
        boolean truncated = all.size() > max;
        List<Upload> page = truncated ? all.subList(0, max) : all;
        Xml x = new Xml("ListMultipartUploadsResult").elem("Bucket", b.name()).elem("KeyMarker", enc(url, keyMarker))
                .elem("UploadIdMarker", idMarker)
                .elem("NextKeyMarker", page.isEmpty() ? "" : enc(url, page.get(page.size() - 1).key()))
                .elem("NextUploadIdMarker", page.isEmpty() ? "" : page.get(page.size() - 1).uploadId())
                .elem("Delimiter", "").elem("Prefix", enc(url, prefix)).elem("MaxUploads", max);
        if (url) {
            x.elem("EncodingType", "url");
        }
        x.elem("IsTruncated", truncated);
        for (Upload u : page) {
            x.start("Upload").elem("Key", enc(url, u.key())).elem("UploadId", u.uploadId())
                    .elem("StorageClass", u.meta().storageClass()).elem("Initiated", Dates.iso8601(u.initiated())).end();
        }
        r.xml(200, x.toBytes());
    }

    /** MD5 of a small in-memory body. */
    static final class ObjectStoreDigest {
        private ObjectStoreDigest() {
        }

        static byte[] md5(byte[] body) {
            try {
                return MessageDigest.getInstance("MD5").digest(body);
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
