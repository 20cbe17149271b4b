package io.ossgw.emulator.storage;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * One bucket: its sorted key index (the listing source) and its in-progress multipart uploads.
 *
 * @param name    bucket name
 * @param created epoch ms
 * @param objects key to current object, in OSS listing order
 * @param uploads upload id to upload
 */
public record BucketState(String name, long created, ConcurrentSkipListMap<String, ObjectMeta> objects,
                          ConcurrentHashMap<String, Upload> uploads) {
    /** An empty bucket. */
    public BucketState(String name, long created) {
        this(name, created, new ConcurrentSkipListMap<>(KeyOrder.INSTANCE), new ConcurrentHashMap<>());
    }
}
