package io.ossgw.emulator.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Content held as a list of immutable off-heap chunks (up to 4 MiB each), so objects can exceed 2 GB, appends and
 * multipart completes share existing chunks instead of copying them, and stored data costs about its size: each chunk
 * is exactly as long as its bytes, outside the Java heap (on the heap, G1 stored every 4 MiB array in humongous regions
 * of 1.5-2x its size, issue 9 item 13). A chunk's memory is freed by the garbage collector once no blob refers to it
 * ({@link Arena#ofAuto()}), and counted against the backend's {@link MemoryQuota} until then.
 */
final class MemoryBlob implements Blob {
    static final MemoryBlob EMPTY = new MemoryBlob(List.of());
    private static final int COPY = 64 * 1024;

    private final Chunk[] chunks;
    /** starts[i] = offset of chunks[i]; starts[n] = size. */
    private final long[] starts;

    /** One stored run of bytes; its memory lives as long as this object is reachable. */
    static final class Chunk {
        final MemorySegment bytes;

        private Chunk(MemorySegment bytes) {
            this.bytes = bytes;
        }

        /** Copies {@code [off, off+len)} of {@code b} into a new chunk reserved in {@code quota}. */
        static Chunk of(byte[] b, int off, int len, MemoryQuota quota) {
            MemorySegment seg = Arena.ofAuto().allocate(len, 1);
            MemorySegment.copy(b, off, seg, ValueLayout.JAVA_BYTE, 0, len);
            Chunk c = new Chunk(seg);
            quota.reserve(c, len);
            return c;
        }

        long length() {
            return bytes.byteSize();
        }
    }

    MemoryBlob(List<Chunk> chunkList) {
        this.chunks = chunkList.toArray(new Chunk[0]);
        this.starts = new long[chunks.length + 1];
        for (int i = 0; i < chunks.length; i++) {
            starts[i + 1] = starts[i] + chunks[i].length();
        }
    }

    List<Chunk> chunks() {
        return Arrays.asList(chunks);
    }

    @Override
    public long size() {
        return starts[chunks.length];
    }

    private int chunkIndex(long offset) {
        int i = Arrays.binarySearch(starts, offset);
        return i >= 0 ? i : -i - 2;
    }

    @Override
    public void writeTo(OutputStream out, long offset, long length) throws IOException {
        byte[] buf = new byte[(int) Math.min(COPY, Math.max(1, length))];
        try (InputStream in = open(offset, length)) {
            int n;
            while ((n = in.read(buf, 0, buf.length)) > 0) {
                out.write(buf, 0, n);
            }
        }
    }

    @Override
    public InputStream open(long offset, long length) {
        return new InputStream() {
            private long pos = offset;
            private final long end = Math.min(offset + length, size());

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos >= end) {
                    return -1;
                }
                if (len == 0) {
                    return 0;
                }
                int i = chunkIndex(pos);
                while (i < chunks.length && starts[i + 1] <= pos) {
                    i++; // skip empty chunks
                }
                long within = pos - starts[i];
                int n = (int) Math.min(Math.min(len, chunks[i].length() - within), end - pos);
                MemorySegment.copy(chunks[i].bytes, ValueLayout.JAVA_BYTE, within, b, off, n);
                pos += n;
                return n;
            }
        };
    }

    /**
     * Writer into new chunks, optionally after the chunks of an existing blob (append). Bytes gather in a heap buffer
     * of up to 4 MiB that becomes an exact-size off-heap chunk when full or at {@link #finish()}.
     */
    static final class Writer implements BlobWriter {
        private static final int MAX_CHUNK = 4 << 20;
        private final List<Chunk> done;
        private final MemoryQuota quota;
        private byte[] current;
        private int used;

        Writer(List<Chunk> base, long sizeHint, MemoryQuota quota) {
            this.done = new ArrayList<>(base);
            this.quota = quota;
            // Start small unless the client announced a size; the hint is capped, never trusted blindly.
            int first = sizeHint > 0 ? (int) Math.min(MAX_CHUNK, sizeHint) : 8192;
            this.current = new byte[Math.max(first, 1)];
        }

        @Override
        public void write(byte[] b, int off, int len) {
            while (len > 0) {
                if (used == current.length) {
                    store();
                    if (current.length < MAX_CHUNK) {
                        current = new byte[Math.min(MAX_CHUNK, Math.max(8192, current.length * 2))];
                    }
                }
                int n = Math.min(len, current.length - used);
                System.arraycopy(b, off, current, used, n);
                used += n;
                off += n;
                len -= n;
            }
        }

        private void store() {
            if (used > 0) {
                done.add(Chunk.of(current, 0, used, quota));
                used = 0;
            }
        }

        @Override
        public Blob finish() {
            store();
            current = null;
            return new MemoryBlob(done);
        }

        @Override
        public void abort() {
            current = null;
            done.clear(); // the chunks stored so far become unreachable and are released
        }
    }
}
