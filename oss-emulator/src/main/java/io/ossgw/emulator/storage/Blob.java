package io.ossgw.emulator.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Immutable object content of {@link #size()} bytes. Implementations stream: nothing here loads a whole
 * object into memory.
 */
public interface Blob {
    /** Size in bytes. */
    long size();

    /** Writes bytes {@code [offset, offset+length)} to {@code out}. */
    void writeTo(OutputStream out, long offset, long length) throws IOException;

    /** A stream over bytes {@code [offset, offset+length)}. */
    InputStream open(long offset, long length) throws IOException;
}
