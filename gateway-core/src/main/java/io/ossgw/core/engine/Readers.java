package io.ossgw.core.engine;

import io.ossgw.core.memory.BufferPool;
import io.ossgw.core.meta.Node;
import io.ossgw.core.read.ReadAhead;
import io.ossgw.core.read.ReadAheadShare;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.RangeRead;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads of files nobody is writing, through one {@link ReadAhead} per handle. The handle first trusts the cached
 * attributes; if the object changed since they were cached (its ETag no longer matches before any byte was returned),
 * the read is sent again without If-Match and the attributes are taken from that GET's headers (a HEAD only when the
 * object is gone), so an open after an external change reads the new version. A change after bytes were returned
 * fails the read with EIO rather than mixing versions. A file whose metadata only a listing showed takes it from the
 * first GET's response headers.
 *
 * <p>Read-ahead GETs run on a pool of at most {@code direct_read_prefetch_thread} platform threads (idle ones end after
 * {@link #IDLE_SECONDS}): a GET's body is read by blocking {@code read(2)}s straight into the chunk, where a virtual
 * thread parked on the JDK's poller at every empty socket buffer and was unparked onto a carrier thread, two more
 * hand-offs per socket read (issue 14, docs/benchmarks.md "Read path"). {@code -Dio.ossgw.read.threads=virtual} restores
 * virtual threads (for comparison). All readers share the budget through one {@link ReadAheadShare}.
 */
final class Readers implements AutoCloseable {
  /** Seconds an idle read-ahead thread lives. */
  static final int IDLE_SECONDS = 30;

  private final ObjectStore store;
  private final BufferPool pool;
  private final ReadAheadShare share;
  private final Executor prefetchExecutor;
  private final ExecutorService ownPool;
  private final int window;
  private final int backward;

  Readers(ObjectStore store, BufferPool pool, ExecutorService io, int window, int backward, int prefetchThreads) {
    this.store = store;
    this.pool = pool;
    this.share = new ReadAheadShare(pool);
    int threads = Math.max(1, prefetchThreads);
    if ("virtual".equals(System.getProperty("io.ossgw.read.threads"))) {
      Semaphore slots = new Semaphore(threads);
      this.ownPool = null;
      this.prefetchExecutor = task -> io.execute(() -> {
        slots.acquireUninterruptibly();
        try {
          task.run();
        } finally {
          slots.release();
        }
      });
    } else {
      AtomicInteger n = new AtomicInteger();
      ThreadPoolExecutor tpe = new ThreadPoolExecutor(threads, threads, IDLE_SECONDS, TimeUnit.SECONDS,
          new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "ossgw-read-ahead-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
          });
      tpe.allowCoreThreadTimeOut(true);
      this.ownPool = tpe;
      this.prefetchExecutor = tpe;
    }
    this.window = window;
    this.backward = backward;
  }

  /** The budget split between streaming readers (for tests and metrics). */
  ReadAheadShare share() {
    return share;
  }

  /** Ends the read-ahead threads (GETs in flight finish; their chunks go back to the pool). */
  @Override
  public void close() {
    if (ownPool != null) {
      ownPool.shutdown();
    }
  }

  /**
   * A file known only from a listing ({@code readdir_optimize}: default mode and owner) takes its real attributes from
   * the first GET's response headers ({@code x-oss-meta-*}), so stat, chmod and chown after a read need no HEAD.
   */
  private static void learnMetadata(OssHandle h, Namespace ns, ReadAhead reader) {
    Node n = h.file.currentNode();
    if (n.metaKnown()) {
      return;
    }
    ObjectInfo seen = reader.objectSeen();
    if (seen != null && (n.attr().etag() == null || n.attr().etag().equalsIgnoreCase(seen.etag()))) {
      synchronized (h) {
        h.file.refresh(ns.learned(h.path(), n.objectKey(), seen));
      }
    }
  }

  /**
   * Reads through the handle's {@link ReadAhead}. The handle's lock covers only finding (or making) the reader and
   * the recovery from a changed object; the read itself runs outside it, so the kernel's parallel READs of one file
   * (several FUSE threads, NFS slots) copy at once instead of queueing behind one that waits for a GET.
   */
  int read(OssHandle h, Namespace ns, long offset, ByteBuffer dst) {
    for (int attempt = 0; ; attempt++) {
      ReadAhead reader;
      synchronized (h) {
        if (h.reader != null && !h.reader.key().equals(h.file.currentNode().objectKey())) {
          h.closeReader(); // renamed while open: the object is under its new key now
        }
        if (h.reader == null) {
          Node n = h.file.currentNode();
          if (h.file.unlinked() && n.attr().etag() == null) {
            throw goneWithTheObject(h); // no version to pin: the key may hold another file now
          }
          h.reader = new ReadAhead(store, pool, share, prefetchExecutor, n.objectKey(), n.attr().size(), n.attr().etag(),
              window, backward);
        }
        reader = h.reader;
      }
      int pos = dst.position();
      try {
        int got = reader.read(offset, dst);
        if (got > 0 && !h.readSomething) {
          h.readSomething = true;
        }
        learnMetadata(h, ns, reader);
        return got;
      } catch (StoreException e) {
        dst.position(pos);
        boolean changed = e.kind() == StoreErrorKind.PRECONDITION_FAILED || e.kind() == StoreErrorKind.NOT_FOUND;
        synchronized (h) {
          if (changed && h.file.unlinked()) {
            throw goneWithTheObject(h);
          }
          if (!changed || h.readSomething || attempt > 0) {
            if (changed) {
              throw new FsException(Errno.EIO, h.path() + " changed in OSS while open: " + e.code(), e);
            }
            throw Errors.toIo(e, h.path());
          }
          if (h.reader != reader && h.reader != null) {
            continue; // a concurrent read already moved the handle to the new version: read that
          }
          h.closeReader();
          if (e.kind() == StoreErrorKind.PRECONDITION_FAILED) {
            int got = readNewVersion(h, ns, offset, dst);
            if (got >= 0) {
              return got;
            }
          }
          h.file.refresh(ns.lookup(h.path()));
        }
      }
    }
  }

  /**
   * A file unlinked or replaced by a rename while open reads only its own version (SEMANTICS.md, unlink): once that
   * version is gone from OSS, the bytes this open never staged are gone with it. The name may hold another file by
   * now, and reading that one instead would hand this open another file's bytes.
   */
  private static FsException goneWithTheObject(OssHandle h) {
    return new FsException(Errno.EIO, h.path() + " was unlinked or replaced while open, and the bytes asked for went with"
        + " its object");
  }

  /**
   * The object changed since its attributes were cached and nothing was returned yet: one GET without If-Match reads
   * the new version, and its response headers are the new attributes (what a HEAD would add, one request fewer). Its
   * ETag is pinned for the rest of the open.
   *
   * @return bytes read, or -1 when the reply carried no metadata (then the caller HEADs)
   */
  private int readNewVersion(OssHandle h, Namespace ns, long offset, ByteBuffer dst) {
    Node old = h.file.currentNode();
    int pos = dst.position();
    RangeRead r;
    try {
      r = store.getObjectRange(old.objectKey(), offset, dst, null);
    } catch (StoreException e) {
      dst.position(pos);
      return -1; // e.g. deleted meanwhile: the lookup tells ENOENT, or the file became a directory
    }
    if (r.object() == null) {
      dst.position(pos);
      return -1;
    }
    Node fresh = ns.learned(h.path(), old.objectKey(), r.object());
    h.file.refresh(fresh);
    h.reader = new ReadAhead(store, pool, share, prefetchExecutor, fresh.objectKey(), fresh.attr().size(), fresh.attr().etag(),
        window, backward);
    h.readSomething |= r.bytesRead() > 0;
    return r.bytesRead();
  }
}
