package io.ossgw.emulator.http;

import java.io.IOException;
import java.io.InputStream;

/**
 * A request body framed on a keep-alive connection (by Content-Length or chunked encoding).
 *
 * <p>The connection can only be reused once the body is consumed, so the server asks it to
 * {@link #drain(long)} before any reply is written (reference pitfall 5: an error sent before the body was
 * read desyncs the connection).
 */
public abstract class BodyInputStream extends InputStream {
    private long consumed;

    /** True once the whole body has been read. */
    public abstract boolean finished();

    /** Body bytes read so far (including drained bytes). */
    public long consumed() {
        return consumed;
    }

    protected void count(long n) {
        if (n > 0) {
            consumed += n;
        }
    }

    /**
     * Reads and discards the rest of the body, at most {@code limit} bytes.
     *
     * @return true if the body is now fully consumed
     */
    public boolean drain(long limit) throws IOException {
        byte[] buf = new byte[64 * 1024];
        long left = limit;
        while (!finished() && left > 0) {
            int n = read(buf, 0, (int) Math.min(buf.length, left));
            if (n < 0) {
                break;
            }
            left -= n;
        }
        return finished();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    /** A body of exactly {@code length} bytes. */
    static final class Fixed extends BodyInputStream {
        private final InputStream in;
        private long remaining;

        Fixed(InputStream in, long length) {
            this.in = in;
            this.remaining = length;
        }

        @Override
        public boolean finished() {
            return remaining == 0;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (remaining == 0) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, remaining));
            if (n < 0) {
                throw new IOException("connection closed with " + remaining + " body bytes missing");
            }
            remaining -= n;
            count(n);
            return n;
        }

        @Override
        public int available() throws IOException {
            return (int) Math.min(in.available(), remaining);
        }
    }

    /** A {@code Transfer-Encoding: chunked} body; trailers are read and ignored. */
    static final class Chunked extends BodyInputStream {
        private final InputStream in;
        private long chunkLeft;
        private boolean done;

        Chunked(InputStream in) {
            this.in = in;
        }

        @Override
        public boolean finished() {
            return done;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (done) {
                return -1;
            }
            if (chunkLeft == 0) {
                String line = HttpParser.readLine(in, 1024);
                if (line == null) {
                    throw new IOException("connection closed inside chunked body");
                }
                int semi = line.indexOf(';');
                String size = (semi >= 0 ? line.substring(0, semi) : line).trim();
                try {
                    chunkLeft = Long.parseLong(size, 16);
                } catch (NumberFormatException e) {
                    throw new IOException("bad chunk size: " + size);
                }
                if (chunkLeft < 0) {
                    throw new IOException("bad chunk size: " + size);
                }
                if (chunkLeft == 0) {
                    String trailer;
                    do {
                        trailer = HttpParser.readLine(in, 8192);
                    } while (trailer != null && !trailer.isEmpty());
                    done = true;
                    return -1;
                }
            }
            int n = in.read(b, off, (int) Math.min(len, chunkLeft));
            if (n < 0) {
                throw new IOException("connection closed inside chunk");
            }
            chunkLeft -= n;
            count(n);
            if (chunkLeft == 0) {
                String crlf = HttpParser.readLine(in, 16);
                if (crlf == null || !crlf.isEmpty()) {
                    throw new IOException("missing CRLF after chunk");
                }
            }
            return n;
        }
    }

    /** No body. */
    static final class Empty extends BodyInputStream {
        @Override
        public boolean finished() {
            return true;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return -1;
        }
    }
}
