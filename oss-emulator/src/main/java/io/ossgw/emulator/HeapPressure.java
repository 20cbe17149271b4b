package io.ossgw.emulator;

import io.ossgw.emulator.util.OldGeneration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether the Java heap is too full for the emulator to take on more: while it is, requests that would make the store
 * hold more (PutObject, AppendObject, CopyObject, InitiateMultipartUpload, UploadPart, UploadPartCopy, PutBucket) are
 * answered 503 {@code SlowDown}, OSS's throttling error (reference/oss-api.md §2.3; the SDK and ossgw retry it), and
 * everything else (reads, lists, deletes, CompleteMultipartUpload, {@code /-/health}) is served. Every stored object
 * keeps its key and metadata on the heap (up to about 9 KB with a 1 KB key and 8 KB of {@code x-oss-meta-*}; the
 * memory store's content is off the heap), so a store that only grows would otherwise fill the heap until the
 * collector runs without pause and nothing is answered (issue 21 D2).
 */
@FunctionalInterface
public interface HeapPressure {
    /** True while requests that grow the store should be refused. */
    boolean high();

    /** How far below the line (a fraction of the heap) the live data must fall to end the refusals: 0.05. */
    double RELEASE = 0.05;

    /** Never refuses. */
    HeapPressure NONE = () -> false;

    /**
     * The heap's own measure: the old generation's occupancy after its last collection ({@link OldGeneration}),
     * against {@code percent} of its maximum, with {@link #RELEASE} of hysteresis. A reading over the line may be stale (garbage not collected yet): then a
     * collection is asked for ({@link System#gc()}, at most once a second, by one caller) and the fresh reading
     * decides.
     *
     * @param percent 1..99; 100 or more turns the check off
     */
    static HeapPressure ofHeap(int percent) {
        OldGeneration old = OldGeneration.ofThisJvm();
        if (percent >= 100 || !old.known()) {
            return NONE;
        }
        double line = percent / 100.0;
        // once over the line, refusals go on until the live data is RELEASE points below it: after a full collection
        // the old generation holds every live object, after a young one the newest sit in the survivor spaces, so the
        // reading alone flaps around the line and let a writer add more after its first SlowDown
        double release = Math.max(0, line - RELEASE);
        AtomicLong lastGc = new AtomicLong(System.nanoTime() - 2_000_000_000L);
        AtomicBoolean high = new AtomicBoolean();
        return () -> {
            double limit = high.get() ? release : line;
            if (old.occupancy() < limit) {
                high.set(false);
                return false;
            }
            long last = lastGc.get();
            long now = System.nanoTime();
            if (now - last >= 1_000_000_000L && lastGc.compareAndSet(last, now)) {
                System.gc();
            }
            boolean over = old.occupancy() >= limit;
            high.set(over);
            return over;
        };
    }
}
