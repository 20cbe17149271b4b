package io.ossgw.emulator.storage;

import java.io.IOException;

/** Receives new content; {@link #finish()} yields the blob, {@link #abort()} discards it. */
public interface BlobWriter {
    /** Appends bytes. */
    void write(byte[] b, int off, int len) throws IOException;

    /** Completes the content; the writer cannot be used afterwards. */
    Blob finish() throws IOException;

    /** Discards what was written (idempotent, never throws). */
    void abort();
}
