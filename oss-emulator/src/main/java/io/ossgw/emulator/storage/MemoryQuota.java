package io.ossgw.emulator.storage;

import io.ossgw.emulator.oss.Errors;
import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes the memory backend holds, against {@code --memory-limit}. Chunks are reserved when stored and released by
 * a {@link Cleaner} when the garbage collector finds them unreachable (chunks are shared between objects, copies and
 * completed uploads, so only reachability says when one is free). A reservation that does not fit first asks for a
 * collection and waits up to {@link #GC_WAIT_MS} for released chunks, as the JDK does for direct buffers; then it is
 * refused with {@code InsufficientStorage} instead of letting the process run out of memory.
 */
final class MemoryQuota {
    static final long UNLIMITED = Long.MAX_VALUE;
    private static final long GC_WAIT_MS = 1000;
    private static final Cleaner CLEANER = Cleaner.create();

    private final long limit;
    private final AtomicLong used = new AtomicLong();

    /** @param limit most bytes held at once, or {@link #UNLIMITED} */
    MemoryQuota(long limit) {
        this.limit = limit;
    }

    long used() {
        return used.get();
    }

    long limit() {
        return limit;
    }

    /**
     * Refuses at once a body that could never fit (its announced size alone is over the limit) or that does not fit
     * now even after a collection, so the client is refused before it sends the body.
     */
    void admit(long size) {
        if (size > 0 && limit != UNLIMITED) {
            if (size > limit || !fitsAfterGc(size)) {
                throw Errors.insufficientStorage(size, used.get(), limit);
            }
        }
    }

    /**
     * Reserves {@code size} bytes for {@code owner}, released when {@code owner} becomes unreachable.
     *
     * @throws io.ossgw.emulator.oss.OssException 507 InsufficientStorage over the limit
     */
    void reserve(Object owner, long size) {
        if (!tryAdd(size) && !(fitsAfterGc(size) && tryAdd(size))) {
            throw Errors.insufficientStorage(size, used.get(), limit);
        }
        CLEANER.register(owner, () -> used.addAndGet(-size)); // the action must not reach owner
    }

    private boolean tryAdd(long size) {
        while (true) {
            long u = used.get();
            if (limit != UNLIMITED && u + size > limit) {
                return false;
            }
            if (used.compareAndSet(u, u + size)) {
                return true;
            }
        }
    }

    private boolean fitsAfterGc(long size) {
        if (used.get() + size <= limit) {
            return true;
        }
        System.gc(); // unreachable chunks are only found by a collection
        long deadline = System.nanoTime() + GC_WAIT_MS * 1_000_000;
        while (used.get() + size > limit && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10); // the cleaner thread releases them asynchronously
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return used.get() + size <= limit;
    }
}
