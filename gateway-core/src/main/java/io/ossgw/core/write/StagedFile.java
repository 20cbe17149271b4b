package io.ossgw.core.write;

import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.memory.BufferPool;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The local staging of one file being written: its bytes plus which of them are the file's content ({@link #valid()})
 * and which changed since the last upload ({@link #dirty()}).
 *
 * <p>A new or truncated file (no base object bytes) starts in memory: its bytes are held in pooled direct buffers
 * ({@link BufferPool} chunks charged to the engine's {@link io.ossgw.core.memory.MemoryBudget}) while it stays within
 * {@code memoryLimit} bytes and the pool has buffers, and an upload sends them from there. Anything else spills it,
 * once, to the spool: an anonymous sparse file in {@code tmpdir} (created and unlinked at once, like ossfs's
 * {@code mkstemp}, so a crash leaves nothing behind) that holds every byte from then on: growing past the bound, an
 * empty pool (the budget is spent: the write goes to the spool, it never fails for lack of memory), loading base
 * bytes, or a streamed part upload (those read the spool in the background). Where the bytes are is invisible to
 * callers: reads, truncates and uploads see the same content.
 *
 * <p>Bytes the staging does not hold yet come from the object the file was opened on ({@code baseSize} bytes of it);
 * the owner loads them before an upload. Not thread-safe: the owner holds its lock.
 */
public final class StagedFile implements AutoCloseable {
  /**
   * Largest file the engine stages, in bytes: what one OSS object can hold, 10,000 parts of at most 5 GB (48.8 TiB;
   * OSS API MultipartUpload limits). A write or truncate past it is EFBIG, as on a local file system whose maximum file
   * size is exceeded (POSIX write(2), truncate(2)), instead of failing later at the upload.
   */
  public static final long MAX_SIZE = EngineConfig.MAX_PARTS * PartPlan.MAX_PART;

  private final Path spoolDir;
  private final RangeSet valid = new RangeSet();
  private final RangeSet dirty = new RangeSet();
  private final long memoryLimit;
  /** The spool, once the file is spilled (or from the start when it is not staged in memory); else null. */
  private FileChannel channel;
  /** The bytes while in memory; else null. */
  private MemoryChunks chunks;
  private long size;
  private long baseSize;
  private boolean metaDirty;

  /**
   * A staging in the spool only.
   *
   * @param spoolDir where to create the spool file
   * @param baseSize bytes of the existing object behind this file (0 for a new or truncated file)
   * @throws FsException ENOSPC or EIO when the spool file cannot be created
   */
  public StagedFile(Path spoolDir, long baseSize) {
    this(spoolDir, baseSize, null, 0);
  }

  /**
   * @param spoolDir where to create the spool file (at once, or when the file spills)
   * @param baseSize bytes of the existing object behind this file (0 for a new or truncated file)
   * @param pool the buffers to stage in, or null to use the spool only
   * @param memoryLimit the most bytes the file may have and stay in memory (0: the spool only); the staging starts in
   *     memory only when {@code baseSize} is 0
   * @throws FsException ENOSPC or EIO when the spool file is created at once and cannot be
   */
  public StagedFile(Path spoolDir, long baseSize, BufferPool pool, long memoryLimit) {
    this.spoolDir = spoolDir;
    this.memoryLimit = memoryLimit;
    this.baseSize = baseSize;
    this.size = baseSize;
    if (pool != null && memoryLimit > 0 && baseSize == 0) {
      chunks = new MemoryChunks(pool);
    } else {
      channel = openSpool(spoolDir);
    }
  }

  private static FileChannel openSpool(Path spoolDir) {
    try {
      Path p;
      try {
        p = Files.createTempFile(spoolDir, "ossgw-spool-", ".tmp");
      } catch (NoSuchFileException e) {
        // made on first use (or again, if it was removed): not before every file, where createDirectories costs a
        // mkdir(2) answered EEXIST and two exceptions with their stack traces
        Files.createDirectories(spoolDir);
        p = Files.createTempFile(spoolDir, "ossgw-spool-", ".tmp");
      }
      FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE);
      Files.delete(p);
      return ch;
    } catch (IOException e) {
      throw ioError("create spool file in " + spoolDir, e);
    }
  }

  /** True while the bytes are held in memory (no spool file exists yet). */
  public boolean inMemory() {
    return chunks != null;
  }

  /**
   * Moves the bytes from memory to a new spool file and gives the buffers back; nothing happens when already spilled.
   *
   * @throws FsException ENOSPC or EIO when the spool cannot take them (the bytes then stay in memory, unchanged)
   */
  public void spill() {
    if (chunks == null) {
      return;
    }
    FileChannel ch = openSpool(spoolDir);
    try {
      chunks.writeTo(ch, size);
    } catch (IOException e) {
      try {
        ch.close();
      } catch (IOException ignored) {
        // unlinked already
      }
      throw ioError("write spool", e);
    }
    chunks.release();
    chunks = null;
    channel = ch;
  }

  /**
   * Writes {@code src} at {@code offset}; the range becomes valid and dirty.
   *
   * @throws FsException EFBIG past {@link #MAX_SIZE} or the spool file system's own limit; ENOSPC; EIO
   */
  public void write(long offset, ByteBuffer src) {
    int len = src.remaining();
    checkSize(offset + len);
    if (chunks != null && !memWrite(offset, src)) {
      spill();
    }
    if (chunks == null) {
      writeSpool(offset, src);
    }
    if (offset > size) {
      // a hole past the end: zeros are the file's content (the spool reads them back as zeros), never bytes to load
      // from an object, even after an upload made the object the base (a read of it would cost a GET, or EIO once the
      // object is gone: an unlinked open file)
      valid.add(size, offset);
    }
    valid.add(offset, offset + len);
    dirty.add(offset, offset + len);
    size = Math.max(size, offset + len);
  }

  private void writeSpool(long offset, ByteBuffer src) {
    try {
      long pos = offset;
      while (src.hasRemaining()) {
        pos += channel.write(src, pos);
      }
    } catch (IOException e) {
      throw ioError("write spool", e);
    }
  }

  /** Writes into the chunks when the file stays within the bound and the pool has buffers; false (nothing done) if not. */
  private boolean memWrite(long offset, ByteBuffer src) {
    long end = offset + src.remaining();
    if (end > memoryLimit || !chunks.cover(end)) {
      return false;
    }
    if (offset > size) {
      chunks.zero(size, offset); // a hole: pooled buffers hold stale bytes (write() marks it valid)
    }
    chunks.put(offset, src);
    return true;
  }

  /**
   * Stores bytes loaded from the base object (valid, not dirty). Only the sub-ranges still missing are written, so a
   * concurrent newer write is never overwritten by older base bytes.
   */
  public void fill(long offset, ByteBuffer src) {
    int len = src.remaining();
    if (!valid.gaps(offset, offset + len).isEmpty()) {
      spill(); // base bytes live in the spool (in memory, every byte is valid already)
    }
    for (long[] gap : valid.gaps(offset, offset + len)) {
      ByteBuffer part = src.duplicate();
      part.position(src.position() + (int) (gap[0] - offset)).limit(src.position() + (int) (gap[1] - offset));
      try {
        long pos = gap[0];
        while (part.hasRemaining()) {
          pos += channel.write(part, pos);
        }
      } catch (IOException e) {
        throw ioError("write spool", e);
      }
      valid.add(gap[0], gap[1]);
    }
  }

  /**
   * Reads valid bytes at {@code offset} (the caller checked {@link #valid()} covers them); holes read as zeros.
   */
  public int read(long offset, ByteBuffer dst, int len) {
    int done = 0;
    if (chunks != null) {
      done = (int) Math.max(0, Math.min(len, size - offset));
      chunks.get(offset, dst, done);
    }
    try {
      while (done < len && channel != null) {
        ByteBuffer slice = dst.duplicate().limit(dst.position() + len - done);
        int n = channel.read(slice, offset + done);
        if (n <= 0) {
          break;
        }
        dst.position(dst.position() + n);
        done += n;
      }
    } catch (IOException e) {
      throw ioError("read spool", e);
    }
    while (done < len) { // sparse tail beyond the spool file's end: zeros
      dst.put((byte) 0);
      done++;
    }
    return done;
  }

  /**
   * Sets the size: shrinking drops bytes, growing adds zeros (valid and dirty).
   *
   * @throws FsException EFBIG past {@link #MAX_SIZE} or the spool file system's own limit (nothing changes then)
   */
  public void truncate(long newSize) {
    checkSize(newSize);
    if (chunks != null && newSize > size && (newSize > memoryLimit || !chunks.cover(newSize))) {
      spill();
    }
    if (chunks != null) {
      if (newSize < size) {
        valid.truncate(newSize);
        dirty.truncate(newSize);
        chunks.shrink(newSize);
        baseSize = Math.min(baseSize, newSize);
      } else if (newSize > size) {
        chunks.zero(size, newSize);
        valid.add(size, newSize);
        dirty.add(size, newSize);
      }
      size = newSize;
      metaDirty = true;
      return;
    }
    try {
      if (newSize < size) {
        valid.truncate(newSize);
        dirty.truncate(newSize);
        if (channel.size() > newSize) {
          channel.truncate(newSize);
        }
        baseSize = Math.min(baseSize, newSize);
      } else if (newSize > size) {
        if (channel.size() > size) {
          channel.truncate(size); // stale bytes past the old end must read back as zeros
        }
        valid.add(size, newSize);
        dirty.add(size, newSize);
      }
    } catch (IOException e) {
      throw ioError("truncate spool", e);
    }
    size = newSize;
    metaDirty = true;
  }

  /** Makes the spool file exactly {@link #size()} bytes long (a sparse zero tail), so uploads can read every byte. */
  public void materializeSize() {
    if (chunks != null) {
      return; // the chunks cover [0, size): zeros where nothing was written
    }
    try {
      if (channel.size() < size) {
        channel.write(ByteBuffer.wrap(new byte[1]), size - 1);
      }
    } catch (IOException e) {
      throw ioError("extend spool", e);
    }
  }

  /** After a successful upload: nothing is dirty and the uploaded content is the new base. */
  public void markUploaded() {
    dirty.clear();
    metaDirty = false;
    baseSize = size;
  }

  /** Records that the object must be rewritten even without data changes (a truncate or a new file). */
  public void markMetaDirty() {
    metaDirty = true;
  }

  /** True when the object must be rewritten whole for reasons other than data (a truncate, a new file, a chmod). */
  public boolean metaDirty() {
    return metaDirty;
  }

  /**
   * Bytes at the start of the file that are still exactly the base object's: {@code min(first dirty offset, baseSize,
   * size)}. An upload may copy them server-side (UploadPartCopy) instead of sending them again.
   */
  public long cleanPrefix() {
    long d = dirty.isEmpty() ? Long.MAX_VALUE : dirty.first();
    return Math.min(d, Math.min(baseSize, size));
  }

  /** Bytes written or zero-extended since the last upload ({@code max_dirty_data} counts these). */
  public long dirtyBytes() {
    return dirty.bytes();
  }

  /** True when an upload is due: data or size changed since the last one. */
  public boolean needsUpload() {
    return metaDirty || !dirty.isEmpty();
  }

  /**
   * The bytes {@code [from, from+length)} as an upload body, for an upload that ends before the owner's next call: the
   * memory chunks themselves while in memory (no copy), else the spool range. The caller has made them valid and
   * called {@link #materializeSize()}.
   */
  public ContentSource content(long from, long length) {
    if (chunks == null) {
      return ContentSource.ofFileRange(channel, from, length);
    }
    if (from < 0 || from + length > size) {
      throw new IllegalArgumentException("range " + from + "+" + length + " outside the file's " + size + " bytes");
    }
    List<ByteBuffer> slices = chunks.slices(from, length);
    return ContentSource.ofBuffers(slices);
  }

  /**
   * As {@link #content} for an upload that runs in the background while the owner goes on writing (a streamed part):
   * always the spool (the file spills first), so the bytes cannot change or go back to the pool under it.
   */
  public ContentSource spoolContent(long from, long length) {
    return spoolContent(from, length, null);
  }

  /**
   * As {@link #spoolContent(long, long)}, with the CRC-64 of those bytes when the caller knows it (null if not): a
   * client may then send the range without reading it ({@link ContentSource.FileRange#crc64()}).
   */
  public ContentSource spoolContent(long from, long length, Long crc64) {
    spill();
    return ContentSource.ofFileRange(channel, from, length, crc64);
  }

  public RangeSet valid() {
    return valid;
  }

  public RangeSet dirty() {
    return dirty;
  }

  public long size() {
    return size;
  }

  /** Bytes of the base object still behind this file (bytes past it are zeros or written data). */
  public long baseSize() {
    return baseSize;
  }

  @Override
  public void close() {
    if (chunks != null) {
      chunks.release();
      chunks = null;
    }
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      // the file is already unlinked; nothing to clean up
    }
  }

  private static void checkSize(long end) {
    if (end > MAX_SIZE || end < 0) {
      throw new FsException(Errno.EFBIG, "file size " + end + " bytes is over the largest OSS object, " + MAX_SIZE
          + " bytes (10,000 parts of 5 GB)");
    }
  }

  static FsException ioError(String what, IOException e) {
    String msg = String.valueOf(e.getMessage());
    if (msg.contains("File too large")) { // EFBIG from the spool's file system (ext4 stops at 16 TiB)
      return new FsException(Errno.EFBIG, what + ": " + msg, e);
    }
    if (msg.contains("No space left") || msg.contains("Disk quota")) {
      return new FsException(Errno.ENOSPC, what + ": " + msg, e);
    }
    return new FsException(Errno.EIO, what + ": " + msg, e);
  }
}
