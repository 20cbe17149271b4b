package io.ossgw.emulator.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Keeps everything in the heap; nothing survives {@link #close()}. Copies and completes share chunks.
 */
public final class MemoryBackend implements Backend {
    @Override
    public String describe() {
        return "memory";
    }

    @Override
    public BlobWriter create(long sizeHint) {
        return new MemoryBlob.Writer(List.of(), sizeHint);
    }

    @Override
    public BlobWriter append(Blob base) {
        return new MemoryBlob.Writer(((MemoryBlob) base).chunks(), -1);
    }

    @Override
    public Blob share(Blob src) {
        return src;
    }

    @Override
    public Blob concat(List<Blob> parts) {
        List<byte[]> all = new ArrayList<>();
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
