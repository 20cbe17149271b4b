package io.ossgw.emulator.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Content held as a list of immutable byte-array chunks (up to 4 MiB each), so objects can exceed 2 GB and appends or
 * multipart completes can share existing chunks instead of copying them.
 */
final class MemoryBlob implements Blob {
    static final MemoryBlob EMPTY = new MemoryBlob(List.of());

    private final byte[][] chunks;
    /** starts[i] = offset of chunks[i]; starts[n] = size. */
    private final long[] starts;

    MemoryBlob(List<byte[]> chunkList) {
        this.chunks = chunkList.toArray(new byte[0][]);
        this.starts = new long[chunks.length + 1];
        for (int i = 0; i < chunks.length; i++) {
            starts[i + 1] = starts[i] + chunks[i].length;
        }
    }

    List<byte[]> chunks() {
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
        long pos = offset;
        long end = offset + length;
        int i = chunkIndex(pos);
        while (pos < end && i < chunks.length) {
            int within = (int) (pos - starts[i]);
            int n = (int) Math.min(chunks[i].length - within, end - pos);
            if (n > 0) {
                out.write(chunks[i], within, n);
                pos += n;
            }
            i++;
        }
    }

    @Override
    public InputStream open(long offset, long length) {
        return new InputStream() {
            private long pos = offset;
            private final long end = offset + length;

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
                int i = chunkIndex(pos);
                while (i < chunks.length && starts[i + 1] <= pos) {
                    i++; // skip empty chunks
                }
                int within = (int) (pos - starts[i]);
                int n = (int) Math.min(Math.min(len, chunks[i].length - within), end - pos);
                System.arraycopy(chunks[i], within, b, off, n);
                pos += n;
                return n;
            }
        };
    }

    /** Writer into new chunks, optionally after the chunks of an existing blob (append). */
    static final class Writer implements BlobWriter {
        // 4 MiB: large enough to be a G1 humongous object, so big bodies are not copied by young collections.
        private static final int MAX_CHUNK = 4 << 20;
        private final List<byte[]> done;
        private byte[] current;
        private int used;

        Writer(List<byte[]> base, long sizeHint) {
            this.done = new ArrayList<>(base);
            // Start small unless the client announced a size; the hint is capped, never trusted blindly.
            int first = sizeHint > 0 ? (int) Math.min(1 << 20, sizeHint) : 8192;
            this.current = new byte[Math.max(first, 1)];
        }

        @Override
        public void write(byte[] b, int off, int len) {
            while (len > 0) {
                if (used == current.length) {
                    done.add(current);
                    current = new byte[Math.min(MAX_CHUNK, Math.max(8192, current.length * 2))];
                    used = 0;
                }
                int n = Math.min(len, current.length - used);
                System.arraycopy(b, off, current, used, n);
                used += n;
                off += n;
                len -= n;
            }
        }

        @Override
        public Blob finish() {
            if (used > 0) {
                done.add(used == current.length ? current : Arrays.copyOf(current, used));
            }
            current = null;
            return new MemoryBlob(done);
        }

        @Override
        public void abort() {
            current = null;
        }
    }
}
