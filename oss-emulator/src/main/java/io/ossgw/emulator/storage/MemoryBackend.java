package io.ossgw.emulator.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Keeps everything in memory (content off the Java heap, see {@link MemoryBlob}); nothing survives {@link #close()}.
 * Copies and completes share chunks. With a limit, uploads that would hold more than that many bytes at once are
 * refused with 507 InsufficientStorage ({@code --memory-limit}) instead of exhausting the process's memory.
 */
public final class MemoryBackend implements Backend {
    private final MemoryQuota quota;

    /** A backend without a limit. */
    public MemoryBackend() {
        this(-1);
    }

    /** @param limitBytes most content bytes held at once, or -1 (or 0) for no limit */
    public MemoryBackend(long limitBytes) {
        this.quota = new MemoryQuota(limitBytes > 0 ? limitBytes : MemoryQuota.UNLIMITED);
    }

    /** Content bytes held now (chunks no object refers to any more count until the garbage collector frees them). */
    public long usedBytes() {
        return quota.used();
    }

    @Override
    public String describe() {
        return quota.limit() == MemoryQuota.UNLIMITED ? "memory" : "memory (limit " + quota.limit() + " bytes)";
    }

    @Override
    public BlobWriter create(long sizeHint) {
        quota.admit(sizeHint);
        return new MemoryBlob.Writer(List.of(), sizeHint, quota);
    }

    @Override
    public BlobWriter append(Blob base) {
        return new MemoryBlob.Writer(((MemoryBlob) base).chunks(), -1, quota);
    }

    @Override
    public Blob share(Blob src) {
        return src;
    }

    @Override
    public Blob concat(List<Blob> parts) {
        List<MemoryBlob.Chunk> all = new ArrayList<>();
        for (Blob b : parts) {
            all.addAll(((MemoryBlob) b).chunks());
        }
        return new MemoryBlob(all);
    }

    @Override
    public List<BucketRecord> loadBuckets() {
        return List.of();
    }

    @Override
    public void saveBucket(BucketRecord bucket) {
        // nothing to persist
    }

    @Override
    public void deleteBucket(String name) {
        // nothing to persist
    }

    @Override
    public void loadObjects(String bucket, Consumer<ObjectMeta> sink) {
        // nothing persisted
    }

    @Override
    public ObjectMeta saveObject(String bucket, ObjectMeta meta, ObjectMeta previous) {
        return meta;
    }

    @Override
    public void deleteObject(String bucket, ObjectMeta meta) {
        // garbage collected
    }

    @Override
    public List<Upload> loadUploads(String bucket) {
        return List.of();
    }

    @Override
    public void saveUpload(Upload upload) {
        // nothing to persist
    }

    @Override
    public Part savePart(Upload upload, Part part, Part previous) {
        return part;
    }

    @Override
    public void deleteUpload(Upload upload) {
        // garbage collected
    }

    @Override
    public void close() {
        // nothing held
    }
}
