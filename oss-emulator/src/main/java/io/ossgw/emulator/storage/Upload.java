package io.ossgw.emulator.storage;

import java.util.concurrent.ConcurrentSkipListMap;

/**
 * An in-progress multipart upload: target key, metadata given at initiation, and the parts so far.
 */
public final class Upload {
    private final String bucket;
    private final String key;
    private final String uploadId;
    private final long initiated;
    private final NewMeta meta;
    private final ConcurrentSkipListMap<Integer, Part> parts = new ConcurrentSkipListMap<>();

    /**
     * @param initiated epoch ms
     * @param meta      metadata the completed object will get
     */
    public Upload(String bucket, String key, String uploadId, long initiated, NewMeta meta) {
        this.bucket = bucket;
        this.key = key;
        this.uploadId = uploadId;
        this.initiated = initiated;
        this.meta = meta;
    }

    public String bucket() {
        return bucket;
    }

    public String key() {
        return key;
    }

    public String uploadId() {
        return uploadId;
    }

    public long initiated() {
        return initiated;
    }

    public NewMeta meta() {
        return meta;
    }

    /** Part number to part, ascending. */
    public ConcurrentSkipListMap<Integer, Part> parts() {
        return parts;
    }
}
