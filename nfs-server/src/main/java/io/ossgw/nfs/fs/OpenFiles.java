package io.ossgw.nfs.fs;

import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.nfs.export.Export;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Open VFS handles behind NFS READ and WRITE, one per file, shared by NFSv3 and NFSv4.1 (so a v3 and a v4.1 client
 * of the same file see one state: the same staged bytes, the same read-ahead). NFSv3 has no open or close: the first READ or WRITE of a file
 * opens it, later calls share that handle (so sequential READs keep the engine's read-ahead and WRITEs its staging
 * and streaming upload), and the handle is released after {@code idle} without calls. Releasing uploads anything
 * still unsaved, which is the close-equivalent for clients that never COMMIT. An NFSv4.1 OPEN holds a use of the
handle until its CLOSE ({@link #pin}), so an opened file is not released while it is open.
 *
 * <p>A release that fails to upload keeps the handle (and its staged data) and is retried; COMMIT then reports the
 * error. After {@code maxFailedReleases} attempts the handle is released anyway and {@code onLostWrites} runs (the
 * server then changes its write verifier, so clients re-send what they have not seen committed).
 */
public final class OpenFiles implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(OpenFiles.class.getName());

  private record Key(int exportId, String path) {}

  private static final class Entry {
    final Export export;
    String path;
    FileHandle handle;
    int users;
    long lastUse;
    int failedReleases;
    boolean closed;

    Entry(Export export, String path) {
      this.export = export;
      this.path = path;
    }
  }

  private final Map<Key, Entry> entries = new ConcurrentHashMap<>();
  private final NameChanges names = new NameChanges();
  private final long idleNanos;
  private final int maxFailedReleases;
  private final Runnable onLostWrites;
  private final ScheduledExecutorService sweeper;

  /**
   * @param idle how long a handle without users stays open
   * @param maxFailedReleases failed uploads of an idle handle before its data is given up
   * @param onLostWrites run when data acknowledged as UNSTABLE is given up (rotates the write verifier)
   */
  public OpenFiles(Duration idle, int maxFailedReleases, Runnable onLostWrites) {
    this.idleNanos = idle.toNanos();
    this.maxFailedReleases = maxFailedReleases;
    this.onLostWrites = onLostWrites;
    this.sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "nfs-open-files");
      t.setDaemon(true);
      return t;
    });
    long period = Math.max(100, idle.toMillis() / 2);
    sweeper.scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.MILLISECONDS);
  }

  /**
   * Runs {@code io} with the file's shared handle, opening it first if needed (read-write on writable exports).
   *
   * @throws FsException from the open or from {@code io}
   */
  public <T> T with(Export export, String path, Caller caller, Function<FileHandle, T> io) {
    Entry e = acquire(export, path, caller);
    try {
      return io.apply(e.handle);
    } finally {
      done(e);
    }
  }

  /**
   * As {@link #with}, for a request that resolved {@code path} from a file handle and checked the file ({@code
   * recheck}, its stat) before this call. A RENAME can run whole between that check and the open (the Linux client's
   * silly rename races its own write-back): the open then finds the name gone, and {@code recheck} runs again, to
   * throw the protocol's "moved: run the request again at the new name" or "stale". Answering the ENOENT instead
   * makes a WRITE fail, which the client takes for lost data.
   *
   * @throws FsException from the open (ENOENT only if {@code recheck} returns) or from {@code io}
   */
  public <T> T with(Export export, String path, Caller caller, Function<FileHandle, T> io, Runnable recheck) {
    try {
      return with(export, path, caller, io);
    } catch (FsException e) {
      if (e.errno() == Errno.ENOENT) {
        recheck.run();
      }
      throw e;
    }
  }

  /**
   * As {@link #commit(Export, String)}, for a request that checked the file ({@code recheck}) before: with no open
   * handle under {@code path}, {@code recheck} runs again, since a RENAME may have moved the handle after the check;
   * answering that nothing was unsaved would promise bytes in OSS that are not there.
   *
   * @throws FsException EIO if the upload fails
   */
  public void commit(Export export, String path, Runnable recheck) {
    if (!commit(export, path)) {
      recheck.run();
    }
  }

  /** Ends one use; the last user of a retired entry releases it. */
  private static void done(Entry e) {
    boolean release;
    synchronized (e) {
      e.users--;
      e.lastUse = System.nanoTime();
      release = e.closed && e.users == 0;
    }
    if (release) {
      release(e);
    }
  }

  /** Keeps a handle from CREATE, so the WRITEs that follow use it. */
  public void adopt(Export export, String path, FileHandle handle) {
    Entry e = new Entry(export, path);
    e.handle = handle;
    e.lastUse = System.nanoTime();
    Entry old = entries.put(new Key(export.id(), path), e);
    if (old != null) {
      retire(old);
    }
  }

  /**
   * COMMIT: uploads what the open handle of the file holds (fsync). A file without an open handle has nothing
   * unsaved. When the COMMIT leaves the handle with no other user (no other call, no NFSv4.1 OPEN) and the file staged
   * in memory, all of it saved ({@link io.ossgw.core.vfs.VirtualFileSystem#savedInMemory}), the handle is released at
   * once: a client sends COMMIT when it closes a file, and holding a small file's buffers until the idle release
   * would take the write pool from the files written after it (which then go to the spool). A later WRITE opens the
   * file again, as it would after the idle time.
   *
   * @return whether {@code path} had an open handle
   * @throws FsException EIO if the upload fails
   */
  public boolean commit(Export export, String path) {
    Entry e = entries.get(new Key(export.id(), path));
    if (e == null) {
      return false;
    }
    synchronized (e) {
      if (e.closed) {
        return false;
      }
      e.users++;
    }
    boolean saved = false;
    try {
      export.fs().fsync(e.handle, false);
      saved = true;
      return true;
    } finally {
      if (saved) {
        doneAfterCommit(e);
      } else {
        done(e);
      }
    }
  }

  /** Ends a COMMIT's use; the last user of a file saved in memory releases it (see {@link #commit(Export, String)}). */
  private void doneAfterCommit(Entry e) {
    Key retired = null;
    synchronized (e) {
      // under the entry's lock no call can take it meanwhile; the check takes the file's own lock, never the reverse
      if (!e.closed && e.users == 1 && e.export.fs().savedInMemory(e.handle)) {
        e.closed = true; // a call that finds it closed takes a fresh entry (acquire)
        retired = new Key(e.export.id(), e.path);
      }
    }
    if (retired != null) {
      entries.remove(retired, e);
    }
    done(e);
  }

  /**
   * The renames in progress of this server's exports: kept here because the open files are the one per-file state
   * NFSv3 and NFSv4.1 share, and a rename updates them under its stripe.
   */
  public NameChanges names() {
    return names;
  }

  /**
   * The file (or directory tree) was renamed: its handles now live under the new path. A handle open under the
   * target's name is of the file the rename replaced, so it is taken out of service first, whether or not a handle
   * moves onto that name (the source may have none: released by its COMMIT or its idle time); else a READ of the new
   * name would go on reading the replaced file.
   */
  public void renamed(Export export, String from, String to) {
    for (Map.Entry<Key, Entry> m : List.copyOf(entries.entrySet())) {
      Key k = m.getKey();
      if (k.exportId() == export.id() && VPaths.isSameOrBelow(k.path(), to) && !VPaths.isSameOrBelow(k.path(), from)
          && entries.remove(k, m.getValue())) {
        retire(m.getValue());
      }
    }
    for (Map.Entry<Key, Entry> m : List.copyOf(entries.entrySet())) {
      Key k = m.getKey();
      if (k.exportId() == export.id() && VPaths.isSameOrBelow(k.path(), from)) {
        String newPath = to + k.path().substring(from.length());
        Entry e = m.getValue();
        synchronized (e) {
          e.path = newPath;
        }
        entries.remove(k, e);
        Entry displaced = entries.put(new Key(k.exportId(), newPath), e);
        if (displaced != null && displaced != e) {
          retire(displaced);
        }
      }
    }
  }

  /** The file was removed: its handle is released (the engine has discarded its unsaved data). */
  public void removed(Export export, String path) {
    Entry e = entries.remove(new Key(export.id(), path));
    if (e != null) {
      retire(e);
    }
  }

  /**
   * Takes the shared handle out of service when it reads an older version of the object than the engine's attributes
   * now show (another client replaced it; {@link io.ossgw.core.vfs.VirtualFileSystem#staleVersion}): the next call
   * opens the current one. Without this a client that keeps reading the file never lets the handle go idle and reads
   * the version of its first READ forever, past the size GETATTR reports (a kernel client then shows the old
   * content, a libnfs client waits for bytes that never come).
   */
  public void dropIfStale(Export export, String path) {
    Key k = new Key(export.id(), path);
    Entry e = entries.get(k);
    if (e == null) {
      return;
    }
    FileHandle h;
    synchronized (e) {
      if (e.closed || e.handle == null) {
        return;
      }
      h = e.handle;
    }
    if (export.fs().staleVersion(h) && entries.remove(k, e)) {
      retire(e); // a READ still running on it finishes first; new calls take a fresh entry
    }
  }

  /** Drops the handle if unused (a READ saw the object change under it; the next call reopens). */
  public void invalidate(Export export, String path) {
    Key k = new Key(export.id(), path);
    Entry e = entries.get(k);
    if (e != null) {
      synchronized (e) {
        if (e.users > 0) {
          return;
        }
        e.closed = true;
      }
      entries.remove(k, e);
      release(e);
    }
  }

  /**
   * Holds a use of the file's shared handle (opening it if needed) until {@link Pin#unpin}: an NFSv4.1 OPEN keeps
   * the handle, with its staged data and read-ahead, for as long as the file is open, whatever the idle time.
   *
   * @throws FsException from the open (EISDIR, ENOENT, EACCES, EIO)
   */
  public Pin pin(Export export, String path, Caller caller) {
    return new Pin(acquire(export, path, caller));
  }

  /** A use of a shared handle held across calls ({@link #pin}); ended once. Thread-safe. */
  public static final class Pin {
    private final Entry entry;
    private boolean done;

    private Pin(Entry entry) {
      this.entry = entry;
    }

    /**
     * Uploads what the pinned handle holds (fsync), as {@link #commit} does for the file's current handle.
     *
     * @throws FsException EIO if the upload fails
     */
    public void commit() {
      entry.export.fs().fsync(entry.handle, false);
    }

    /**
     * Ends the use. The handle stays open for other users and for the idle time; a handle taken out of service
     * meanwhile (the file removed or replaced) is released now if this was its last user. Idempotent.
     */
    public void unpin() {
      synchronized (this) {
        if (done) {
          return;
        }
        done = true;
      }
      done(entry);
    }
  }

  /** Files with an open handle now. */
  public int size() {
    return entries.size();
  }

  private Entry acquire(Export export, String path, Caller caller) {
    Key k = new Key(export.id(), path);
    while (true) {
      Entry e = entries.computeIfAbsent(k, key -> new Entry(export, path));
      synchronized (e) {
        if (e.closed) {
          entries.remove(k, e); // retired meanwhile: take a fresh entry
          continue;
        }
        if (e.handle == null) {
          try {
            e.handle = export.fs().open(path, export.readOnly() ? OpenFlags.READ_ONLY : OpenFlags.READ_WRITE, caller);
          } catch (RuntimeException ex) {
            e.closed = true;
            entries.remove(k, e);
            throw ex;
          }
        }
        e.users++;
        return e;
      }
    }
  }

  /** Releases idle handles; runs on the sweeper thread, uploads on virtual threads. */
  private void sweep() {
    long now = System.nanoTime();
    for (Map.Entry<Key, Entry> m : List.copyOf(entries.entrySet())) {
      Entry e = m.getValue();
      synchronized (e) {
        if (e.closed || e.users > 0 || now - e.lastUse < idleNanos || e.handle == null) {
          continue;
        }
        e.users++; // held by the sweep until it decides
      }
      Thread.ofVirtual().name("nfs-release").start(() -> releaseIdle(e));
    }
  }

  private void releaseIdle(Entry e) {
    boolean uploaded;
    try {
      e.export.fs().fsync(e.handle, false);
      uploaded = true;
    } catch (RuntimeException ex) {
      uploaded = false;
      LOG.log(System.Logger.Level.WARNING, "upload of " + e.path + " failed (" + (e.failedReleases + 1) + " of "
          + maxFailedReleases + "): " + ex.getMessage());
    }
    boolean giveUp;
    synchronized (e) {
      e.users--;
      if (e.closed) {
        if (e.users > 0) {
          return; // retired meanwhile: its last user releases it
        }
        giveUp = false;
      } else {
        if (!uploaded) {
          e.failedReleases++;
          e.lastUse = System.nanoTime();
        }
        giveUp = !uploaded && e.failedReleases >= maxFailedReleases;
        if ((!uploaded && !giveUp) || e.users > 0) {
          return; // retry later, or in use again
        }
        e.closed = true;
        entries.remove(new Key(e.export.id(), e.path), e);
      }
    }
    if (giveUp) {
      LOG.log(System.Logger.Level.ERROR, "giving up uploading " + e.path + "; clients will be told to re-send");
      onLostWrites.run();
    }
    release(e);
  }

  /** Takes an entry out of service; it is released now, or by its last user. */
  private static void retire(Entry e) {
    boolean now;
    synchronized (e) {
      e.closed = true;
      now = e.users == 0;
    }
    if (now) {
      release(e);
    }
  }

  private static void release(Entry e) {
    if (e.handle != null) {
      try {
        e.export.fs().release(e.handle);
      } catch (RuntimeException ex) {
        LOG.log(System.Logger.Level.WARNING, "release of " + e.path + ": " + ex.getMessage());
      }
    }
  }

  /** Stops the sweeper and releases every handle (uploading what is unsaved). */
  @Override
  public void close() {
    sweeper.shutdownNow();
    List<Entry> all = new ArrayList<>(entries.values());
    entries.clear();
    for (Entry e : all) {
      synchronized (e) {
        e.closed = true;
      }
      release(e);
    }
  }
}
