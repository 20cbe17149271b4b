package io.ossgw.emulator.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Content in a file, bounded to {@code size} bytes: an appendable object's file may have grown past what
 * this version describes (appends write in place), and those bytes are never read through this blob.
 *
 * @param path   the data file
 * @param size   bytes that belong to this content
 * @param staged true while the file is a temporary file not yet referenced by stored metadata
 */
record FileBlob(Path path, long size, boolean staged) implements Blob {
    static final int BUFFER = 256 * 1024;

    @Override
    public void writeTo(OutputStream out, long offset, long length) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            byte[] buf = new byte[(int) Math.min(BUFFER, Math.max(length, 1))];
            ByteBuffer bb = ByteBuffer.wrap(buf);
            long pos = offset;
            long end = offset + length;
            while (pos < end) {
                bb.clear().limit((int) Math.min(buf.length, end - pos));
                int n = ch.read(bb, pos);
                if (n < 0) {
                    throw new IOException("data file " + path + " shorter than " + end);
                }
                out.write(buf, 0, n);
                pos += n;
            }
        }
    }

    @Override
    public InputStream open(long offset, long length) throws IOException {
        FileChannel ch = FileChannel.open(path, StandardOpenOption.READ);
        ch.position(offset);
        InputStream raw = Channels.newInputStream(ch);
        return new InputStream() {
            private long left = length;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (left <= 0) {
                    return -1;
                }
                int n = raw.read(b, off, (int) Math.min(len, left));
                if (n > 0) {
                    left -= n;
                }
                return n;
            }

            @Override
            public void close() throws IOException {
                raw.close();
            }
        };
    }
}
