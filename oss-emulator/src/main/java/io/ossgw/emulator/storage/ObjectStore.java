package io.ossgw.emulator.storage;

import io.ossgw.emulator.oss.Errors;
import io.ossgw.emulator.util.Crc64;
import io.ossgw.emulator.util.Hex;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Buckets and objects with OSS semantics (ETags, CRC-64, append positions, multipart rules) over a
 * {@link Backend}. Bodies are streamed into staging content without any lock; only the final swap of a
 * key's current version runs under a per-key lock, so concurrent PUTs of one key are last-writer-wins.
 */
public final class ObjectStore implements AutoCloseable {
    /** OSS minimum size of every part but the last (100 KB), checked at CompleteMultipartUpload. */
    public static final long MIN_PART_SIZE = 100 * 1024;

    private final Backend backend;
    private final Map<String, BucketState> buckets = new ConcurrentHashMap<>();
    private final ReentrantLock[] locks = new ReentrantLock[1024];

    /** Loads whatever {@code backend} persisted (buckets, objects, uploads). */
    public ObjectStore(Backend backend) throws IOException {
        this.backend = backend;
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new ReentrantLock();
        }
        for (Backend.BucketRecord r : backend.loadBuckets()) {
            BucketState b = new BucketState(r.name(), r.created());
            backend.loadObjects(r.name(), m -> b.objects().put(m.key(), m));
            for (Upload u : backend.loadUploads(r.name())) {
                b.uploads().put(u.uploadId(), u);
            }
            buckets.put(r.name(), b);
        }
    }

    /** {@code memory} or the data directory. */
    public String describe() {
        return backend.describe();
    }

    private ReentrantLock lockFor(String bucket, String key) {
        int h = (bucket.hashCode() * 31 + key.hashCode()) & Integer.MAX_VALUE;
        ReentrantLock l = locks[h % locks.length];
        l.lock();
        return l;
    }

    // ---- buckets -------------------------------------------------------------------------------

    /** Creates a bucket; returns false if it already exists. */
    public boolean createBucket(String name) throws IOException {
        BucketState b = new BucketState(name, System.currentTimeMillis());
        if (buckets.putIfAbsent(name, b) != null) {
            return false;
        }
        backend.saveBucket(new Backend.BucketRecord(name, b.created()));
        return true;
    }

    /** The bucket, or null. */
    public BucketState bucket(String name) {
        return buckets.get(name);
    }

    /** All buckets by name. */
    public List<BucketState> buckets() {
        List<BucketState> all = new ArrayList<>(buckets.values());
        all.sort(Comparator.comparing(BucketState::name));
        return all;
    }

    /** Deletes an empty bucket (BucketNotEmpty otherwise). */
    public void deleteBucket(BucketState b) throws IOException {
        if (!b.objects().isEmpty() || !b.uploads().isEmpty()) {
            throw Errors.bucketNotEmpty(b.name());
        }
        buckets.remove(b.name());
        backend.deleteBucket(b.name());
    }

    // ---- objects -------------------------------------------------------------------------------

    /** The current object under {@code key}, or null. */
    public ObjectMeta head(BucketState b, String key) {
        return b.objects().get(key);
    }

    /**
     * PutObject: stores the body as a Normal object.
     *
     * @param sizeHint    Content-Length or -1 (chunked)
     * @param expectedMd5 binary Content-MD5 to verify, or null
     * @throws io.ossgw.emulator.oss.OssException InvalidDigest, FileAlreadyExists
     */
    public ObjectMeta put(BucketState b, String key, InputStream body, long sizeHint, NewMeta meta, byte[] expectedMd5,
                          boolean forbidOverwrite) throws IOException {
        if (forbidOverwrite && b.objects().containsKey(key)) {
            throw Errors.fileAlreadyExists(key);
        }
        BlobWriter w = backend.create(sizeHint);
        Ingest.Result r;
        Blob blob;
        try {
            r = Ingest.copy(body, w, 0);
            checkMd5(expectedMd5, r.md5());
            blob = w.finish();
        } catch (IOException | RuntimeException e) {
            w.abort();
            throw e;
        }
        ObjectMeta m = new ObjectMeta(key, r.size(), Hex.upper(r.md5()), System.currentTimeMillis(), meta.contentType(),
                ObjectType.Normal, r.crc64(), meta.storageClass(), meta.userMeta(), meta.headers(), blob);
        return commit(b, m, forbidOverwrite);
    }

    private ObjectMeta commit(BucketState b, ObjectMeta m, boolean forbidOverwrite) throws IOException {
        ReentrantLock l = lockFor(b.name(), m.key());
        try {
            ObjectMeta prev = b.objects().get(m.key());
            if (forbidOverwrite && prev != null) {
                discard(m.blob());
                throw Errors.fileAlreadyExists(m.key());
            }
            ObjectMeta stored;
            try {
                stored = backend.saveObject(b.name(), m, prev);
            } catch (IOException | RuntimeException e) {
                discard(m.blob()); // the key keeps its previous version
                throw e;
            }
            b.objects().put(m.key(), stored);
            return stored;
        } finally {
            l.unlock();
        }
    }

    private void discard(Blob staged) {
        if (staged instanceof FileBlob fb && fb.staged()) {
            try {
                java.nio.file.Files.deleteIfExists(fb.path());
            } catch (IOException ignored) {
                // the tmp directory is emptied at the next start
            }
        }
    }

    private static void checkMd5(byte[] expected, byte[] actual) {
        if (expected != null && !Arrays.equals(expected, actual)) {
            throw Errors.invalidDigest("The Content-MD5 you specified did not match what we received.");
        }
    }

    /**
     * AppendObject at {@code position}; creates an Appendable object when the key is absent (position 0).
     * Metadata is taken only when the object is created, as OSS does.
     *
     * @throws io.ossgw.emulator.oss.OssException PositionNotEqualToLength, ObjectNotAppendable, InvalidDigest
     */
    public ObjectMeta append(BucketState b, String key, long position, InputStream body, long sizeHint, NewMeta meta,
                             byte[] expectedMd5) throws IOException {
        // Held while streaming: appends to one key are ordered by their position check anyway.
        ReentrantLock l = lockFor(b.name(), key);
        try {
            ObjectMeta prev = b.objects().get(key);
            long current = prev == null ? 0 : prev.size();
            if (prev != null && prev.type() != ObjectType.Appendable) {
                throw Errors.objectNotAppendable();
            }
            if (position != current) {
                throw Errors.positionNotEqualToLength(current);
            }
            BlobWriter w = prev == null ? backend.create(sizeHint) : backend.append(prev.blob());
            Ingest.Result r;
            Blob blob;
            try {
                r = Ingest.copy(body, w, prev == null ? 0 : prev.crc64());
                checkMd5(expectedMd5, r.md5());
                blob = w.finish();
            } catch (IOException | RuntimeException e) {
                w.abort();
                throw e;
            }
            long size = current + r.size();
            NewMeta nm = prev == null ? meta : NewMeta.of(prev);
            ObjectMeta m = new ObjectMeta(key, size, appendEtag(r.crc64(), size), System.currentTimeMillis(),
                    nm.contentType(), ObjectType.Appendable, r.crc64(), nm.storageClass(), nm.userMeta(), nm.headers(), blob);
            ObjectMeta stored = backend.saveObject(b.name(), m, prev);
            b.objects().put(key, stored);
            return stored;
        } finally {
            l.unlock();
        }
    }

    /** Appendable ETags are not an MD5 of the content on OSS; here they are derived from CRC and size. */
    private static String appendEtag(long crc, long size) {
        MessageDigest md = Ingest.md5();
        return Hex.upper(md.digest((Long.toUnsignedString(crc) + ":" + size).getBytes(StandardCharsets.US_ASCII)));
    }

    /**
     * CopyObject: {@code dstKey} gets the content of {@code src} with metadata {@code meta}. The ETag and CRC
     * follow the content; an Appendable source gives a Normal object whose ETag is the MD5 of the content.
     */
    public ObjectMeta copy(ObjectMeta src, BucketState dst, String dstKey, NewMeta meta, boolean forbidOverwrite,
                           boolean sameObject) throws IOException {
        long now = System.currentTimeMillis();
        if (sameObject) {
            // Metadata-only update: the content stays where it is.
            return commit(dst, src.rewrite(dstKey, meta, now), false);
        }
        if (forbidOverwrite && dst.objects().containsKey(dstKey)) {
            throw Errors.fileAlreadyExists(dstKey);
        }
        if (src.type() == ObjectType.Appendable) {
            BlobWriter w = backend.create(src.size());
            Ingest.Result r;
            Blob blob;
            try (InputStream in = src.blob().open(0, src.size())) {
                r = Ingest.copy(in, w, 0);
                blob = w.finish();
            } catch (IOException | RuntimeException e) {
                w.abort();
                throw e;
            }
            return commit(dst, new ObjectMeta(dstKey, r.size(), Hex.upper(r.md5()), now, meta.contentType(),
                    ObjectType.Normal, r.crc64(), meta.storageClass(), meta.userMeta(), meta.headers(), blob), forbidOverwrite);
        }
        Blob shared = backend.share(src.blob());
        return commit(dst, src.rewrite(dstKey, meta, now).withBlob(shared), forbidOverwrite);
    }

    /** DeleteObject; returns whether something was deleted. */
    public boolean delete(BucketState b, String key) throws IOException {
        ReentrantLock l = lockFor(b.name(), key);
        try {
            ObjectMeta prev = b.objects().remove(key);
            if (prev != null) {
                backend.deleteObject(b.name(), prev);
            }
            return prev != null;
        } finally {
            l.unlock();
        }
    }

    // ---- multipart -----------------------------------------------------------------------------

    /** InitiateMultipartUpload: a new upload id (32 upper-case hex digits). */
    public Upload initiate(BucketState b, String key, NewMeta meta) throws IOException {
        byte[] id = new byte[16];
        ThreadLocalRandom.current().nextBytes(id);
        Upload u = new Upload(b.name(), key, Hex.upper(id), System.currentTimeMillis(), meta);
        backend.saveUpload(u);
        b.uploads().put(u.uploadId(), u);
        return u;
    }

    /** The upload {@code uploadId} of {@code key}, or NoSuchUpload. */
    public Upload upload(BucketState b, String key, String uploadId) {
        Upload u = uploadId == null ? null : b.uploads().get(uploadId);
        if (u == null || !u.key().equals(key)) {
            throw Errors.noSuchUpload(uploadId);
        }
        return u;
    }

    /** UploadPart: stores (or replaces) part {@code number}. */
    public Part putPart(BucketState b, Upload u, int number, InputStream body, long sizeHint, byte[] expectedMd5)
            throws IOException {
        BlobWriter w = backend.create(sizeHint);
        Ingest.Result r;
        Blob blob;
        try {
            r = Ingest.copy(body, w, 0);
            checkMd5(expectedMd5, r.md5());
            blob = w.finish();
        } catch (IOException | RuntimeException e) {
            w.abort();
            throw e;
        }
        return savePart(b, u, new Part(number, Hex.upper(r.md5()), r.size(), r.crc64(), System.currentTimeMillis(), blob));
    }

    /** UploadPartCopy: part {@code number} gets bytes {@code [offset, offset+length)} of {@code src}. */
    public Part copyPart(BucketState b, Upload u, int number, ObjectMeta src, long offset, long length) throws IOException {
        BlobWriter w = backend.create(length);
        Ingest.Result r;
        Blob blob;
        try (InputStream in = src.blob().open(offset, length)) {
            r = Ingest.copy(in, w, 0);
            blob = w.finish();
        } catch (IOException | RuntimeException e) {
            w.abort();
            throw e;
        }
        return savePart(b, u, new Part(number, Hex.upper(r.md5()), r.size(), r.crc64(), System.currentTimeMillis(), blob));
    }

    private Part savePart(BucketState b, Upload u, Part p) throws IOException {
        synchronized (u) {
            if (b.uploads().get(u.uploadId()) != u) {
                discard(p.blob());
                throw Errors.noSuchUpload(u.uploadId());
            }
            Part stored;
            try {
                stored = backend.savePart(u, p, u.parts().get(p.number()));
            } catch (IOException | RuntimeException e) {
                discard(p.blob());
                throw e;
            }
            u.parts().put(p.number(), stored);
            return stored;
        }
    }

    /** One entry of a CompleteMultipartUpload body: part number and the ETag the client holds (no quotes). */
    public record PartRef(int number, String etag) {
    }

    /**
     * CompleteMultipartUpload with the listed parts, in the order given.
     *
     * @throws io.ossgw.emulator.oss.OssException InvalidPartOrder, InvalidPart, EntityTooSmall, FileAlreadyExists
     */
    public ObjectMeta complete(BucketState b, Upload u, List<PartRef> refs, boolean forbidOverwrite) throws IOException {
        synchronized (u) {
            if (b.uploads().get(u.uploadId()) != u) {
                throw Errors.noSuchUpload(u.uploadId());
            }
            List<Part> parts = new ArrayList<>(refs.size());
            int last = 0;
            for (PartRef ref : refs) {
                if (ref.number() <= last) {
                    throw Errors.invalidPartOrder();
                }
                last = ref.number();
                Part p = u.parts().get(ref.number());
                if (p == null || !p.etag().equalsIgnoreCase(ref.etag())) {
                    throw Errors.invalidPart(ref.number(), ref.etag());
                }
                parts.add(p);
            }
            MessageDigest md = Ingest.md5();
            long crc = 0;
            long size = 0;
            List<Blob> blobs = new ArrayList<>(parts.size());
            for (int i = 0; i < parts.size(); i++) {
                Part p = parts.get(i);
                if (i < parts.size() - 1 && p.size() < MIN_PART_SIZE) {
                    throw Errors.entityTooSmall(p.number());
                }
                md.update(Hex.parse(p.etag()));
                crc = Crc64.combine(crc, p.crc64(), p.size());
                size += p.size();
                blobs.add(p.blob());
            }
            if (forbidOverwrite && b.objects().containsKey(u.key())) {
                throw Errors.fileAlreadyExists(u.key());
            }
            Blob joined = backend.concat(blobs);
            NewMeta nm = u.meta();
            ObjectMeta m = new ObjectMeta(u.key(), size, Hex.upper(md.digest()) + "-" + parts.size(),
                    System.currentTimeMillis(), nm.contentType(), ObjectType.Multipart, crc, nm.storageClass(),
                    nm.userMeta(), nm.headers(), joined);
            ObjectMeta stored = commit(b, m, forbidOverwrite);
            b.uploads().remove(u.uploadId());
            backend.deleteUpload(u);
            return stored;
        }
    }

    /** AbortMultipartUpload. */
    public void abort(BucketState b, Upload u) throws IOException {
        synchronized (u) {
            if (b.uploads().remove(u.uploadId()) == null) {
                throw Errors.noSuchUpload(u.uploadId());
            }
            backend.deleteUpload(u);
        }
    }

    @Override
    public void close() {
        backend.close();
    }
}
