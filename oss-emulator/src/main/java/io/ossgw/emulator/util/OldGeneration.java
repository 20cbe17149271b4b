package io.ossgw.emulator.util;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;

/**
 * How full this JVM's old generation was after its last collection: the live data, which decides whether the heap
 * has room left (what is used right now also counts garbage not collected yet). The pool is the heap pool with the
 * largest maximum: Serial's Tenured Gen, Parallel's PS Old Gen, G1's Old Gen (whose maximum is the whole heap). Used
 * by the emulator's 503 SlowDown ({@link io.ossgw.emulator.HeapPressure}) and by the gateway's heap guard
 * ({@code io.ossgw.app.lifecycle.HeapGuard}). Thread-safe.
 */
public final class OldGeneration {
    private static final OldGeneration JVM = new OldGeneration(find());

    private final MemoryPoolMXBean pool;

    private OldGeneration(MemoryPoolMXBean pool) {
        this.pool = pool;
    }

    /** This JVM's old generation. */
    public static OldGeneration ofThisJvm() {
        return JVM;
    }

    /** Whether the JVM reports such a pool (else {@link #occupancy()} is always 0). */
    public boolean known() {
        return pool != null;
    }

    /** Bytes used after the last collection over the pool's maximum, 0..1; 0 before the first collection. */
    public double occupancy() {
        if (pool == null) {
            return 0;
        }
        MemoryUsage after = pool.getCollectionUsage();
        long max = pool.getUsage().getMax();
        return after == null || max <= 0 ? 0 : (double) after.getUsed() / max;
    }

    private static MemoryPoolMXBean find() {
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
