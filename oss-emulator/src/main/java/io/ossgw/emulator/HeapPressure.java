package io.ossgw.emulator;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
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

    /** Never refuses. */
    HeapPressure NONE = () -> false;

    /**
     * The heap's own measure: the old generation's occupancy after its last collection, against {@code percent} of its
     * maximum. A reading over the line may be stale (garbage not collected yet): then a collection is asked for
     * ({@link System#gc()}, at most once a second, by one caller) and the fresh reading decides.
     *
     * @param percent 1..99; 100 or more turns the check off
     */
    static HeapPressure ofHeap(int percent) {
        if (percent >= 100) {
            return NONE;
        }
        MemoryPoolMXBean old = oldGeneration();
        if (old == null) {
            return NONE;
        }
        double line = percent / 100.0;
        AtomicLong lastGc = new AtomicLong(System.nanoTime() - 2_000_000_000L);
        return () -> {
            if (occupancy(old) < line) {
                return false;
            }
            long last = lastGc.get();
            long now = System.nanoTime();
            if (now - last >= 1_000_000_000L && lastGc.compareAndSet(last, now)) {
                System.gc();
            }
            return occupancy(old) >= line;
        };
    }

    /** Used after the last collection over the maximum, 0 when not known yet. */
    private static double occupancy(MemoryPoolMXBean pool) {
        MemoryUsage after = pool.getCollectionUsage();
        long max = pool.getUsage().getMax();
        return after == null || max <= 0 ? 0 : (double) after.getUsed() / max;
    }

    /**
     * The heap pool objects end up in: the one with the largest maximum (Serial's Tenured Gen, Parallel's PS Old Gen,
     * G1's Old Gen, whose maximum is the whole heap), or null if the JVM reports none.
     */
    private static MemoryPoolMXBean oldGeneration() {
        MemoryPoolMXBean best = null;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.isCollectionUsageThresholdSupported()
                    && (best == null || p.getUsage().getMax() > best.getUsage().getMax())) {
                best = p;
            }
        }
        return best;
    }
}
