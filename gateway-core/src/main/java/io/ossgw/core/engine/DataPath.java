package io.ossgw.core.engine;

import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.memory.BufferPool;
import io.ossgw.core.meta.Node;
import io.ossgw.core.store.AppendResult;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.RangeRead;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.write.PartCrcs;
import io.ossgw.core.write.StagedFile;
import io.ossgw.core.write.StreamingUpload;
import io.ossgw.core.write.Uploader;
import java.nio.ByteBuffer;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/** What an {@link OpenFile} needs from the engine to stage, load and upload its data. */
final class DataPath {
  private static final int LOAD_PIECE = 1 << 20;

  private final EngineConfig config;
  private final ObjectStore store;
  private final ExecutorService executor;
  private final Namespace namespace;
  private final Uploader uploader;
  private final ObjectCopier copier;
  private final BufferPool writePool;
  private final long writeMemoryLimit;

  DataPath(EngineConfig config, ObjectStore store, ExecutorService executor, Namespace namespace, Uploader uploader,
      ObjectCopier copier, BufferPool writePool) {
    this.writePool = writePool;
    this.writeMemoryLimit = writePool == null ? 0 : stagingMemoryLimit(config.multipartSize(), writePool);
    this.copier = copier;
    this.config = config;
    this.store = store;
    this.executor = executor;
    this.namespace = namespace;
    this.uploader = uploader;
  }

  /** CopyObject of an object onto itself with new metadata (UploadPartCopy above {@code singlepart_copy_limit}). */
  WriteResult rewriteMeta(String key, long size, WriteMeta meta) {
    return copier.copy(key, key, size, meta);
  }

  Uploader uploader() {
    return uploader;
  }

  boolean streamingAllowed() {
    return !config.noMultipart();
  }

  /**
   * {@code max_dirty_data} in bytes, or -1 when off. As in ossfs it is off with {@code nomultipart} and
   * {@code nomixupload}: without
   * UploadPartCopy every forced flush would send the whole file again.
   */
  long maxDirtyData() {
    return config.noMultipart() || config.noMixUpload() ? -1 : config.maxDirtyData();
  }

  /** True when unchanged leading bytes may be copied server-side (UploadPartCopy) instead of uploaded again. */
  boolean copyPrefixAllowed() {
    return !config.noMultipart() && !config.noMixUpload();
  }

  /**
   * AppendObject of {@code [position, size)} of the spool onto an Appendable object whose length is {@code position}
   * (pieces of at most 5 GB, OSS's largest single write).
   *
   * @throws StoreException CONFLICT (PositionNotEqualToLength) when the object's length is not {@code position} any more
   */
  AppendResult append(String key, StagedFile f, long position, WriteMeta meta) {
    f.materializeSize();
    AppendResult r = null;
    for (long off = position; off < f.size(); ) {
      long len = Math.min(io.ossgw.core.write.PartPlan.MAX_PART, f.size() - off);
      r = store.appendObject(key, off, f.content(off, len), meta);
      off += len;
    }
    return r;
  }

  StreamingUpload newStream(String key, Supplier<WriteMeta> meta, PartCrcs crcs) {
    return new StreamingUpload(store, executor, uploader, key, meta, config.multipartSize(), config.parallelCount(),
        crcs);
  }

  /** A tracker of the CRCs of a new staging's writes, cut into the parts a stream would send. */
  PartCrcs newPartCrcs() {
    return new PartCrcs(config.multipartSize());
  }

  /** A staging: in memory while the file is new and small (see {@link #stagingMemoryLimit}), else the spool. */
  StagedFile newStaging(long baseSize) {
    return new StagedFile(config.spoolDir(), baseSize, writePool, writeMemoryLimit);
  }

  /**
   * The most bytes a file may have and stay staged in memory: below {@code multipart_size} (such a file is one
   * PutObject; a bigger one streams parts in the background, which read the spool) and at most a quarter of the write
   * pool, so one file cannot take the buffers of many.
   */
  static long stagingMemoryLimit(long multipartSize, BufferPool writePool) {
    long quarter = writePool.maxBytes() / 4;
    return Math.max(0, Math.min(multipartSize - 1, quarter));
  }

  /**
   * Makes {@code [from, to)} of the staging valid by reading what is missing from the object it was opened on (pinned
   * to its ETag, so bytes of two versions never mix).
   *
   * @throws FsException EIO when the object changed or shrank since it was opened, or a GET failed
   */
  void load(StagedFile f, String key, String etag, long from, long to) {
    long end = Math.min(to, f.baseSize());
    if (from >= end || f.valid().covers(from, end)) {
      return;
    }
    ByteBuffer buf = ByteBuffer.allocate((int) Math.min(LOAD_PIECE, end - from));
    for (long[] gap : f.valid().gaps(from, end)) {
      for (long off = gap[0]; off < gap[1]; ) {
        int n = (int) Math.min(buf.capacity(), gap[1] - off);
        buf.clear().limit(n);
        RangeRead r;
        try {
          r = store.getObjectRange(key, off, buf, etag);
        } catch (StoreException e) {
          throw Errors.toIo(e, namespace.keys().pathOf(key));
        }
        if (r.bytesRead() < n) {
          throw new FsException(Errno.EIO, key + " is shorter than when it was opened");
        }
        buf.flip();
        f.fill(off, buf);
        off += n;
      }
    }
  }

  WriteResult putEmpty(String key, WriteMeta meta) {
    return store.putObject(key, ContentSource.empty(), meta);
  }

  /** Caches what was just uploaded and returns its node. */
  Node recordUploaded(String path, ObjectInfo info) {
    Node n = namespace.fromHead(info.key(), info);
    namespace.recordWritten(path, n);
    return n;
  }
}
