package io.ossgw.emulator.oss;

import io.ossgw.emulator.storage.BucketState;
import io.ossgw.emulator.storage.ObjectMeta;
import io.ossgw.emulator.storage.ObjectStore;
import io.ossgw.emulator.storage.ObjectType;
import io.ossgw.emulator.storage.Part;
import io.ossgw.emulator.storage.Upload;
import io.ossgw.emulator.util.Crc64;
import io.ossgw.emulator.util.Dates;
import io.ossgw.emulator.util.UriCodec;
import io.ossgw.emulator.util.Xml;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * InitiateMultipartUpload, UploadPart, UploadPartCopy, CompleteMultipartUpload, AbortMultipartUpload and
 * ListParts. Part sizes are only checked at Complete (EntityTooSmall below 100 KB for all but the last).
 */
final class MultipartHandler {
    private final ObjectStore store;
    private final ObjectHandler objects;

    MultipartHandler(ObjectStore store, ObjectHandler objects) {
        this.store = store;
        this.objects = objects;
    }

    private static boolean url(OssRequest r) {
        return "url".equalsIgnoreCase(r.param("encoding-type"));
    }

    void initiate(OssRequest r, BucketState b) throws IOException {
        Upload u = store.initiate(b, r.key(), ObjectHeaders.fromRequest(r.headers()));
        boolean url = url(r);
        Xml x = new Xml("InitiateMultipartUploadResult");
        if (url) {
            x.elem("EncodingType", "url");
        }
        x.elem("Bucket", b.name()).elem("Key", url ? UriCodec.encode(r.key(), true) : r.key()).elem("UploadId", u.uploadId());
        r.xml(200, x.toBytes());
    }

    private static int partNumber(OssRequest r) {
        String v = r.param("partNumber");
        try {
            int n = Integer.parseInt(v == null ? "" : v.trim());
            if (n >= 1 && n <= 10000) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw Errors.invalidArgument("Part number must be an integer between 1 and 10000, inclusive.", "partNumber", v);
    }

    void uploadPart(OssRequest r, BucketState b) throws IOException {
        int n = partNumber(r);
        Upload u = store.upload(b, r.key(), r.param("uploadId"));
        Part p = store.putPart(b, u, n, r.body(), r.contentLength(), r.contentMd5());
        r.header("ETag", ObjectHeaders.quote(p.etag()));
        r.header("x-oss-hash-crc64ecma", Crc64.toWire(p.crc64()));
        r.empty(200);
    }

    void uploadPartCopy(OssRequest r, BucketState b) throws IOException {
        int n = partNumber(r);
        Upload u = store.upload(b, r.key(), r.param("uploadId"));
        ObjectMeta src = objects.copySource(r);
        if (src.type() == ObjectType.Appendable) {
            // reference/oss-api.md §2.2: appendable objects cannot be copied by UploadPartCopy
            throw Errors.invalidArgument("UploadPartCopy does not support an Appendable source object.",
                    "x-oss-copy-source", r.header("x-oss-copy-source"));
        }
        long[] range = Ranges.resolve(r.header("x-oss-copy-source-range"), src.size(), false);
        long off = range == null ? 0 : range[0];
        long len = range == null ? src.size() : range[1] - range[0] + 1;
        Part p = store.copyPart(b, u, n, src, off, len);
        r.header("x-oss-hash-crc64ecma", Crc64.toWire(p.crc64()));
        r.xml(200, new Xml("CopyPartResult").elem("LastModified", Dates.iso8601(p.lastModified()))
                .elem("ETag", ObjectHeaders.quote(p.etag())).toBytes());
    }

    void complete(OssRequest r, BucketState b, String hostHeader) throws IOException {
        Upload u = store.upload(b, r.key(), r.param("uploadId"));
        List<ObjectStore.PartRef> refs = new ArrayList<>();
        if ("yes".equalsIgnoreCase(r.header("x-oss-complete-all"))) {
            for (Map.Entry<Integer, Part> e : u.parts().entrySet()) {
                refs.add(new ObjectStore.PartRef(e.getKey(), e.getValue().etag()));
            }
        } else {
            refs = parseParts(r.smallBody(4 * 1024 * 1024));
        }
        ObjectMeta m = store.complete(b, u, refs, "true".equalsIgnoreCase(r.header("x-oss-forbid-overwrite")));
        boolean url = url(r);
        String key = url ? UriCodec.encode(m.key(), true) : m.key();
        Xml x = new Xml("CompleteMultipartUploadResult");
        if (url) {
            x.elem("EncodingType", "url");
        }
        x.elem("Location", "http://" + hostHeader + "/" + b.name() + "/" + UriCodec.encode(m.key(), true))
                .elem("Bucket", b.name()).elem("Key", key).elem("ETag", ObjectHeaders.quote(m.etag()));
        r.header("x-oss-hash-crc64ecma", Crc64.toWire(m.crc64()));
        r.xml(200, x.toBytes());
    }

    private static List<ObjectStore.PartRef> parseParts(byte[] body) {
        OssException malformed = Errors.malformedXml(
                "The XML you provided was not well-formed or did not validate against our published schema.");
        Document doc;
        try {
            doc = Xml.parse(body);
        } catch (IllegalArgumentException e) {
            throw malformed;
        }
        NodeList parts = doc.getDocumentElement().getElementsByTagName("Part");
        if (parts.getLength() == 0 || parts.getLength() > 10000) {
            throw malformed;
        }
        List<ObjectStore.PartRef> refs = new ArrayList<>();
        for (int i = 0; i < parts.getLength(); i++) {
            Element p = (Element) parts.item(i);
            NodeList num = p.getElementsByTagName("PartNumber");
            NodeList etag = p.getElementsByTagName("ETag");
            if (num.getLength() == 0 || etag.getLength() == 0) {
                throw malformed;
            }
            try {
                refs.add(new ObjectStore.PartRef(Integer.parseInt(num.item(0).getTextContent().trim()),
                        ObjectHeaders.unquote(etag.item(0).getTextContent())));
            } catch (NumberFormatException e) {
                throw malformed;
            }
        }
        return refs;
    }

    void abort(OssRequest r, BucketState b) throws IOException {
        store.abort(b, store.upload(b, r.key(), r.param("uploadId")));
        r.empty(204);
    }

    void listParts(OssRequest r, BucketState b) throws IOException {
        Upload u = store.upload(b, r.key(), r.param("uploadId"));
        int max = ListHandler.limit(r, "max-parts", 1000);
        int marker = 0;
        String mv = r.param("part-number-marker");
        if (mv != null && !mv.isEmpty()) {
            try {
                marker = Integer.parseInt(mv.trim());
            } catch (NumberFormatException e) {
                throw Errors.invalidArgument("Invalid part-number-marker.", "part-number-marker", mv);
            }
        }
        List<Part> all = new ArrayList<>(u.parts().tailMap(marker, false).values());
        boolean truncated = all.size() > max;
        List<Part> page = truncated ? all.subList(0, max) : all;
        boolean url = url(r);
        Xml x = new Xml("ListPartsResult").elem("Bucket", b.name())
                .elem("Key", url ? UriCodec.encode(u.key(), true) : u.key()).elem("UploadId", u.uploadId())
                .elem("StorageClass", u.meta().storageClass()).elem("PartNumberMarker", marker)
                .elem("NextPartNumberMarker", page.isEmpty() ? marker : page.get(page.size() - 1).number())
                .elem("MaxParts", max).elem("IsTruncated", truncated);
        if (url) {
            x.elem("EncodingType", "url");
        }
        for (Part p : page) {
            x.start("Part").elem("PartNumber", p.number()).elem("LastModified", Dates.iso8601(p.lastModified()))
                    .elem("ETag", ObjectHeaders.quote(p.etag())).elem("HashCrc64ecma", Crc64.toWire(p.crc64()))
                    .elem("Size", p.size()).end();
        }
        r.xml(200, x.toBytes());
    }
}
