package io.ossgw.emulator.storage;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Where content and metadata live: memory ({@link MemoryBackend}) or a directory ({@link DirectoryBackend}).
 * {@link ObjectStore} holds the in-memory indexes and the OSS rules; a backend only stores.
 *
 * <p>Blobs returned by {@code create/share/concat} are "staged": they become part of the store only when
 * passed to {@link #saveObject} or {@link #savePart}.
 */
public interface Backend extends AutoCloseable {
    /** Human-readable location: {@code memory} or the data directory. */
    String describe();

    /** New content; {@code sizeHint} is the expected size in bytes or -1 (never trusted for allocation). */
    BlobWriter create(long sizeHint) throws IOException;

    /** Continues {@code base} (the current content of an appendable object); readers of base are unaffected. */
    BlobWriter append(Blob base) throws IOException;

    /** Staged content equal to {@code src} (CopyObject), sharing storage where possible. */
    Blob share(Blob src) throws IOException;

    /** Staged content equal to the concatenation of {@code parts} (CompleteMultipartUpload). */
    Blob concat(List<Blob> parts) throws IOException;

    /** Bucket names with their creation times (epoch ms), from a previous run. */
    List<BucketRecord> loadBuckets() throws IOException;

    /** Records a new bucket. */
    void saveBucket(BucketRecord bucket) throws IOException;

    /** Forgets an empty bucket. */
    void deleteBucket(String name) throws IOException;

    /** Feeds every stored object of {@code bucket} to {@code sink}. */
    void loadObjects(String bucket, Consumer<ObjectMeta> sink) throws IOException;

    /**
     * Makes {@code meta} the current version of its key, atomically (a crash leaves either the old or the new
     * object, never a torn one), and releases {@code previous}'s content if it is no longer referenced.
     *
     * @return the meta as stored (its blob may have moved)
     */
    ObjectMeta saveObject(String bucket, ObjectMeta meta, ObjectMeta previous) throws IOException;

    /** Removes a stored object. */
    void deleteObject(String bucket, ObjectMeta meta) throws IOException;

    /** In-progress multipart uploads of {@code bucket} from a previous run, with their parts. */
    List<Upload> loadUploads(String bucket) throws IOException;

    /** Records a new multipart upload. */
    void saveUpload(Upload upload) throws IOException;

    /** Stores a part (replacing {@code previous} with the same number), returning it as stored. */
    Part savePart(Upload upload, Part part, Part previous) throws IOException;

    /** Removes an upload and all its parts. */
    void deleteUpload(Upload upload) throws IOException;

    /** A bucket as persisted. */
    record BucketRecord(String name, long created) {
    }

    @Override
    void close();
}
