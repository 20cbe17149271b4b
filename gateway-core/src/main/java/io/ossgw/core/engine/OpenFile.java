package io.ossgw.core.engine;

import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.meta.Inodes;
import io.ossgw.core.meta.Node;
import io.ossgw.core.meta.PosixMeta;
import io.ossgw.core.store.AppendResult;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.write.PartCrcs;
import io.ossgw.core.write.StagedFile;
import io.ossgw.core.write.StreamingUpload;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One file opened by one or more handles (ossfs's FdEntity): the object it was opened on, its local staging once
 * written, and the attributes it will have when uploaded. All handles of a path share it, so a reader sees what a writer
 * wrote before the upload.
 *
 * <p>State changes happen under {@link #lock}; uploads hold it too, so a write waits for an upload of the same file.
 */
final class OpenFile {
  private static final System.Logger LOG = System.getLogger(OpenFile.class.getName());
  final ReentrantLock lock = new ReentrantLock();
  private final DataPath data;
  private String path;
  private String key;
  private Node node;
  private StagedFile staged;
  private StreamingUpload stream;
  /** The CRCs of the writes to a staging of a new file (baseSize 0), which its stream's parts take; else null. */
  private PartCrcs crcs;
  private boolean pendingCreate;
  /** Attributes changed after the streaming upload fixed its metadata: rewrite them once it completes. */
  private boolean metaAfterStream;
  private boolean unlinked;
  /** An attribute was set on the file since it was opened (chmod, chown, utimens): a close must upload. */
  private boolean attrsSet;
  /** The first close(2) of a bare new file was answered without an upload ({@link #flushAtClose}). */
  private boolean closeDeferred;
  private Instant explicitMtime;
  private int refs;

  /**
   * @param node the file's node (from HEAD/cache), or a PENDING node for a file created and not yet uploaded
   */
  OpenFile(DataPath data, String path, String key, Node node, boolean pendingCreate) {
    this.data = data;
    this.path = path;
    this.key = key;
    this.node = node;
    this.pendingCreate = pendingCreate;
  }

  String path() {
    return path;
  }

  String key() {
    return key;
  }

  int refs() {
    return refs;
  }

  void retain() {
    refs++;
  }

  int releaseRef() {
    return --refs;
  }

  /** The node as the file system should show it now (size and times of unsaved writes included). */
  Node currentNode() {
    lock.lock();
    try {
      return node;
    } finally {
      lock.unlock();
    }
  }

  /** Takes newer attributes from OSS (the object changed since the open); ignored once the file has local state. */
  void refresh(Node fresh) {
    lock.lock();
    try {
      if (staged == null && !pendingCreate && !fresh.isDirectory()) {
        node = fresh;
      }
    } finally {
      lock.unlock();
    }
  }

  /** True while the file has data or attributes not yet in OSS, so listings and lookups must show our version. */
  boolean hasLocalState() {
    return pendingCreate || (staged != null && staged.needsUpload());
  }

  boolean pendingCreate() {
    return pendingCreate;
  }

  /** True when the staging is in pooled memory and all of it is in OSS: a release uploads nothing and frees buffers. */
  boolean savedInMemory() {
    lock.lock();
    try {
      return !unlinked && !pendingCreate && stream == null && staged != null && staged.inMemory()
          && !staged.needsUpload();
    } finally {
      lock.unlock();
    }
  }

  boolean unlinked() {
    return unlinked;
  }

  /** The object was deleted or replaced by rename: nothing is uploaded any more. */
  void markUnlinked() {
    lock.lock();
    try {
      unlinked = true;
      dropStream();
    } finally {
      lock.unlock();
    }
  }

  /** Renamed while open without a copy (a file not yet uploaded): later uploads go to the new key. */
  void moveTo(String newPath, String newKey) {
    moveTo(newPath, newKey, node.attr().etag());
  }

  /**
   * The file was renamed while open and its object copied to {@code newKey}: later uploads go there, and reads of bytes
   * not staged read the copy, whose ETag is {@code etag} (a copy made with UploadPartCopy has a new one; null when the
   * copy's is unknown).
   */
  void moveTo(String newPath, String newKey, String etag) {
    lock.lock();
    try {
      dropStream();
      this.path = newPath;
      this.key = newKey;
      FileAttr a = node.attr();
      node = new Node(new FileAttr(Inodes.of(newKey), a.type(), a.mode(), a.uid(), a.gid(), a.size(), a.atime(), a.mtime(),
          a.ctime(), etag), node.origin(), newKey, node.objectType(), node.contentType(), node.userMeta(),
          node.symlinkTarget(), node.lastModified(), node.nextAppendPosition());
    } finally {
      lock.unlock();
    }
  }

  /** Writes bytes at an offset into the staging, streaming whole parts of a fresh file to OSS as they fill. */
  int write(long offset, ByteBuffer src) {
    lock.lock();
    try {
      int len = src.remaining();
      StagedFile f = staging(node.attr().size());
      if (stream != null && stream.conflicts(offset)) {
        dropStream();
      }
      ByteBuffer written = src.duplicate(); // the bytes, for the part CRCs
      try {
        f.write(offset, src);
      } catch (RuntimeException e) {
        if (crcs != null) {
          crcs.onWriteFailed(offset, len); // the staging may hold some of its bytes
        }
        throw e;
      }
      if (crcs != null) {
        crcs.onWrite(offset, written); // before a part starts: it may take the CRC
      }
      Instant now = Instant.now();
      explicitMtime = null;
      setAttr(node.attr().withSize(f.size()), now, now);
      if (stream == null && f.baseSize() == 0 && f.dirty().first() == 0 && data.streamingAllowed()) {
        stream = data.newStream(key, this::uploadMeta, crcs);
      }
      if (stream != null && !stream.invalid()) {
        stream.onWrite(f);
      }
      long maxDirty = data.maxDirtyData();
      if (maxDirty > 0 && f.dirtyBytes() >= maxDirty && !unlinked) {
        upload(); // max_dirty_data: the object gets what was written so far; later writes go on from there
        // Like ossfs's PunchHole: the uploaded bytes leave the local disk; the object now holds them, later reads
        // load them with ranged GETs and the next upload copies them server-side.
        staged.close();
        staged = null;
        staging(node.attr().size());
      }
      return len;
    } finally {
      lock.unlock();
    }
  }

  /** Reads staged bytes (loading what is missing from the object) — only when the file has a staging. */
  int readStaged(long offset, ByteBuffer dst) {
    lock.lock();
    try {
      long size = staged.size();
      if (offset >= size) {
        return 0;
      }
      int len = (int) Math.min(dst.remaining(), size - offset);
      data.load(staged, key, node.attr().etag(), offset, offset + len);
      return staged.read(offset, dst, len);
    } finally {
      lock.unlock();
    }
  }

  /** True once writes or a truncate gave this file a local staging: reads then go through it. */
  boolean staged() {
    lock.lock();
    try {
      return staged != null;
    } finally {
      lock.unlock();
    }
  }

  /** Sets the size (truncate/ftruncate/O_TRUNC); the change is uploaded at the next flush. */
  void truncate(long size) {
    lock.lock();
    try {
      StagedFile f = staging(size == 0 ? 0 : node.attr().size());
      if (stream != null && size < stream.streamedUpTo()) {
        dropStream();
      }
      if (crcs != null) {
        crcs.onTruncate(size); // first: a truncate that fails half-way leaves no range the tracking believes whole
      }
      f.truncate(size);
      Instant now = Instant.now();
      setAttr(node.attr().withSize(size), now, now);
    } finally {
      lock.unlock();
    }
  }

  /** Changes attributes in memory; they are written with the next upload. */
  void updateAttr(FileAttr a, boolean explicitMtimeSet) {
    lock.lock();
    try {
      node = node.withAttr(a);
      attrsSet = true;
      if (stream != null && stream.started()) {
        // its metadata was fixed at InitiateMultipartUpload: keep streaming (smbd and cp -p set times just before
        // close; uploading everything again would double the transfer) and rewrite the metadata after Complete
        metaAfterStream = true;
      }
      if (explicitMtimeSet) {
        explicitMtime = a.mtime();
      }
      if (staged != null) {
        staged.markMetaDirty();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Attributes a SETATTR by path has just written to OSS itself (a self-copy) while this file is open. When the file
   * has nothing to upload they become its node's attributes and nothing is marked for upload: marking them would make
   * the next SETATTR wait for the release, which then sends every byte again (NFS's {@code tar x}: COMMIT, then
   * SETATTR mode and times by path). When an upload is due anyway it carries them, as {@link #updateAttr} does.
   */
  void attrWritten(FileAttr a) {
    lock.lock();
    try {
      if (pendingCreate || (staged != null && staged.needsUpload()) || (stream != null && stream.started())) {
        updateAttr(a, false);
        return;
      }
      node = node.withAttr(a);
      attrsSet = true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * A close(2) of a descriptor (FUSE FLUSH): uploads like {@link #flush}, except the first close of a bare new file,
   * one created through this open and since given no byte, no size and no attribute. That close returns without a
   * request and the file stays pending; any later close, fsync or the last close (RELEASE) uploads it. FUSE cannot
   * tell a duplicate's close from the last one, and the programs that create empty files close a duplicate first
   * (coreutils {@code touch}: open, {@code dup2} to fd 0, close, {@code futimens}, close; a shell's {@code > f}), so
   * this makes their create one PutObject carrying the attributes set after it instead of a PutObject and a
   * CopyObject. The cost (SEMANTICS.md, "No zero-byte PUT at create"): when that first close is the last, the empty
   * object is written by the RELEASE the kernel sends right after close(2) returned, so a crash of the gateway in
   * between loses the empty file (never data: it has none) and a failure there is logged, not returned.
   *
   * @throws FsException EIO (the staging is kept, a later flush retries)
   */
  void flushAtClose() {
    lock.lock();
    try {
      if (pendingCreate && staged == null && !attrsSet && !closeDeferred && !unlinked) {
        closeDeferred = true;
        return;
      }
      flush();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The upload of a released handle (FUSE RELEASE, NFS idle release): as {@link #flush}, but a file staged in memory
   * moves to the spool first when an upload is due. That upload outlives close(2), and {@code ossgw umount} counts the
   * files a mount process still has to upload by their open spool files (SEMANTICS.md "Unmount"), so it must hold one.
   *
   * @throws FsException EIO (the staging is kept, a later flush retries)
   */
  void flushAtRelease() {
    lock.lock();
    try {
      if (!unlinked && staged != null && staged.inMemory() && (staged.needsUpload() || pendingCreate)) {
        spillQuietly();
      }
      flush();
    } finally {
      lock.unlock();
    }
  }

  /** Moves a staging in memory to the spool; when the spool cannot take it, it stays in memory (the upload still works). */
  private void spillQuietly() {
    try {
      staged.spill();
    } catch (FsException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot move " + path + " to the spool (" + e.getMessage()
          + "); it stays staged in memory");
    }
  }

  /**
   * Uploads unsaved data and attributes; returns once they are in OSS. Called by fsync, the last close (RELEASE), NFS
   * COMMIT, rename and every close(2) but the one {@link #flushAtClose} defers.
   *
   * @throws FsException EIO (the staging is kept, a later flush retries)
   */
  void flush() {
    lock.lock();
    try {
      if (unlinked) {
        return;
      }
      boolean dirty = staged != null && staged.needsUpload();
      if (dirty || pendingCreate) {
        upload();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Uploads the file, choosing the cheapest way OSS allows: finish the streaming multipart upload; AppendObject of the
   * new tail of an Appendable object; UploadPartCopy of the unchanged leading bytes (at least 100 KB) plus UploadPart of
   * the rest; else the whole file from the spool (loading unchanged bytes with ranged GETs first).
   */
  private void upload() {
    WriteMeta meta = uploadMeta();
    WriteResult r;
    String type = "Normal";
    long nextAppend = -1;
    try {
      if (staged == null) {
        r = data.putEmpty(key, meta);
      } else if (stream != null && stream.started()) {
        data.load(staged, key, node.attr().etag(), 0, staged.size());
        meta = stream.initiatedMeta(); // fixed when the upload began
        r = stream.finish(staged);
        type = "Multipart";
        if (metaAfterStream) {
          meta = uploadMeta(); // attributes changed while streaming: one server-side self-copy applies them
          r = data.rewriteMeta(key, staged.size(), meta);
          metaAfterStream = false;
        }
      } else if (appendsOnly()) {
        long position = staged.baseSize();
        AppendResult a = data.append(key, staged, position, meta);
        r = new WriteResult(a.etag(), a.crc64());
        meta = new WriteMeta(meta.contentType(), node.userMeta() == null ? meta.userMeta() : node.userMeta());
        type = "Appendable";
        nextAppend = a.nextPosition();
      } else if (copyPrefix()) {
        long prefix = staged.cleanPrefix();
        data.load(staged, key, node.attr().etag(), prefix, staged.size());
        try {
          r = data.uploader().uploadKeepingPrefix(key, node.attr().etag(), staged, prefix, meta);
          type = "Multipart";
        } catch (StoreException e) {
          if (e.kind() == StoreErrorKind.PRECONDITION_FAILED) {
            throw new FsException(Errno.EIO, path + " changed in OSS while open; not uploaded", e);
          }
          // e.g. the object became Appendable (UploadPartCopy refuses those): send the whole file instead
          LOG.log(System.Logger.Level.WARNING, "UploadPartCopy upload of " + path + " failed (" + e.code()
              + "); uploading the whole file");
          data.load(staged, key, node.attr().etag(), 0, staged.size());
          r = data.uploader().upload(key, staged, meta);
          type = staged.size() >= data.uploader().multipartSize() ? "Multipart" : "Normal";
        }
      } else {
        data.load(staged, key, node.attr().etag(), 0, staged.size());
        r = data.uploader().upload(key, staged, meta);
        boolean multipart = staged.size() >= data.uploader().multipartSize() && data.streamingAllowed();
        type = multipart ? "Multipart" : "Normal";
      }
    } catch (StoreException e) {
      dropStream();
      releaseMemoryAfterFailure();
      throw Errors.toIo(e, path);
    } catch (RuntimeException e) {
      dropStream();
      releaseMemoryAfterFailure();
      throw e;
    }
    stream = null;
    long size = staged == null ? 0 : staged.size();
    // the namespace learns the new object before the file stops counting as local: a stat in between (OpenFiles#nodeOf
    // reads hasLocalState() without this lock) would otherwise fall back to the cached attributes of the old object
    // (seen once: fstat after open(O_TRUNC) showed the old size while the previous handle's RELEASE uploaded)
    node = data.recordUploaded(path, new ObjectInfo(key, size, r.etag(), Instant.now(), type, meta.contentType(),
        meta.userMeta(), nextAppend));
    if (staged != null) {
      staged.markUploaded();
    }
    pendingCreate = false;
    explicitMtime = null;
  }

  /**
   * After a failed upload a file staged in memory moves to the spool: its retry (the next flush, or the RELEASE after a
   * failed close) may take long against a failing OSS, and should neither hold pool buffers meanwhile nor be missed by
   * {@code ossgw umount}'s count of files still to upload.
   */
  private void releaseMemoryAfterFailure() {
    if (staged != null && staged.inMemory()) {
      spillQuietly();
    }
  }

  /**
   * True when the only change is bytes added at the end of an Appendable object: AppendObject at its length sends just
   * those (it cannot change metadata, so a chmod or truncate while open takes the whole-upload path).
   */
  private boolean appendsOnly() {
    return "Appendable".equalsIgnoreCase(node.objectType()) && !pendingCreate && !staged.metaDirty()
        && !staged.dirty().isEmpty() && staged.dirty().first() >= staged.baseSize();
  }

  /**
   * True when at least 100 KB at the start are unchanged bytes of a Normal or Multipart object and something after them
   * changed: those bytes are copied server-side instead of downloaded and sent again.
   */
  private boolean copyPrefix() {
    long prefix = staged.cleanPrefix();
    return data.copyPrefixAllowed() && !pendingCreate && !"Appendable".equalsIgnoreCase(node.objectType())
        && node.attr().etag() != null && prefix >= EngineConfig.MIN_PART_SIZE && prefix < staged.size();
  }

  /** The metadata the next upload writes: the POSIX attributes now, other user metadata kept. */
  private WriteMeta uploadMeta() {
    FileAttr a = node.attr();
    if (explicitMtime != null) {
      a = new FileAttr(a.ino(), a.type(), a.mode(), a.uid(), a.gid(), a.size(), a.atime(), explicitMtime, a.ctime(), a.etag());
    }
    Map<String, String> base = node.userMeta() == null ? Map.of() : new HashMap<>(node.userMeta());
    String ct = node.contentType() == null ? WriteMeta.OCTET_STREAM : node.contentType();
    return new WriteMeta(ct, PosixMeta.encode(a, base));
  }

  private StagedFile staging(long baseSize) {
    if (staged == null) {
      staged = data.newStaging(pendingCreate ? 0 : baseSize);
      if (pendingCreate) {
        staged.markMetaDirty();
      }
      // a new file's bytes are all written here from now on: their CRCs can be tracked from the first write, in any
      // order, for its stream's parts (a base object's bytes loaded into the staging would not be seen)
      crcs = staged.baseSize() == 0 && data.streamingAllowed() ? data.newPartCrcs() : null;
    }
    return staged;
  }

  private void setAttr(FileAttr a, Instant mtime, Instant ctime) {
    node = node.withAttr(new FileAttr(a.ino(), a.type(), a.mode(), a.uid(), a.gid(), a.size(), a.atime(), mtime, ctime,
        a.etag()));
  }

  private void dropStream() {
    if (stream != null) {
      stream.invalidate();
      stream = null;
    }
    metaAfterStream = false; // the whole-file upload that replaces the stream carries the current attributes
  }

  /** Frees the staging (after the last handle is released). */
  void dispose() {
    lock.lock();
    try {
      dropStream();
      if (staged != null) {
        staged.close();
        staged = null;
        crcs = null;
      }
    } finally {
      lock.unlock();
    }
  }

  /** Fails if the file cannot be written through this open (it was unlinked: writes are accepted and discarded). */
  static FsException notWritable(String path) {
    return new FsException(Errno.EBADF, path + " is not open for writing");
  }
}
