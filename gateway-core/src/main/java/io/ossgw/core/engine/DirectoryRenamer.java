package io.ossgw.core.engine;

import io.ossgw.core.meta.Inodes;
import io.ossgw.core.meta.Node;
import io.ossgw.core.meta.Origin;
import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ListedObject;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.MovedNames;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.LongPredicate;

/**
 * rename(2) of a directory on an object store: every object below it is copied to the new prefix (CopyObject, or
 * UploadPartCopy above the single-copy limit) and each source deleted only after its copy exists, so a failure
 * half-way leaves every byte under one of the two names (EIO), never lost. Not atomic (SEMANTICS.md, rename).
 *
 * <p>The work goes one ListObjectsV2 page at a time ({@code listMaxKeys}, at most 1,000 keys): the page's objects are
 * copied with at most {@value #COPY_PARALLELISM} copies in flight, then its sources go in one DeleteMultipleObjects;
 * the next page is listed meanwhile (the continuation token resumes after the page's last key, so deleting the page
 * does not move it). Memory and threads stay at one page and {@value #COPY_PARALLELISM} copies however many objects the
 * directory holds; a rename that listed everything first and started a thread per object took about half a KB of heap
 * per object and a parked virtual thread each (a million-object directory: hundreds of MB, past any
 * {@code memory_limit}). A page whose copies or deletes failed does not stop the rename: the next pages are still
 * moved, and the rename then answers EIO naming how many objects stayed behind. A listing that fails after the first
 * page ends it there (EIO): the objects not listed stay under the old name.
 */
final class DirectoryRenamer {
  static final int COPY_PARALLELISM = 32;

  private final ObjectStore store;
  private final ExecutorService executor;
  private final Namespace ns;
  private final OpenFiles openFiles;
  private final ObjectCopier copier;
  private final int listMaxKeys;
  private final LongPredicate singleCopy;

  /**
   * @param singleCopy true for an object size (bytes) that one CopyObject moves with its metadata; a bigger one is
   *     copied in parts, for which its Content-Type and user metadata are read first (HeadObject)
   */
  DirectoryRenamer(ObjectStore store, ExecutorService executor, Namespace ns, OpenFiles openFiles, ObjectCopier copier,
      int listMaxKeys, LongPredicate singleCopy) {
    this.store = store;
    this.executor = executor;
    this.ns = ns;
    this.openFiles = openFiles;
    this.copier = copier;
    this.listMaxKeys = listMaxKeys;
    this.singleCopy = singleCopy;
  }

  /** What the pages moved so far. */
  private static final class Progress {
    long listed;
    long failedCopies;
    long notDeleted;
    boolean listingFailed;
    RuntimeException firstError;
    boolean markerCopied;
    /** Source key -> the copy's ETag (null if OSS gave none), for the files open below the directory only. */
    final Map<String, String> openCopies = new HashMap<>();
    /** Directories below the renamed one already reported to {@link MovedNames} (relative paths). */
    final Set<String> reportedDirs = new HashSet<>();
  }

  /**
   * Moves {@code from} (a directory, {@code src} its node) to {@code to}, which does not exist or was an empty
   * directory whose marker is gone.
   *
   * @throws FsException EIO when an object could not be copied (it stays under the old name) or a copied source could
   *     not be deleted (it is under both names); the namespace is updated for what moved either way
   */
  void rename(String from, String to, Node src) {
    Set<String> openKeys = new HashSet<>();
    for (OpenFile f : openFiles.under(from)) {
      if (f.hasLocalState()) {
        f.flush(); // unsaved files become objects first, so the copy below moves them
      }
      openKeys.add(f.key());
    }
    String srcPrefix = ns.keys().dirKey(from);
    String dstPrefix = ns.keys().dirKey(to);
    Progress p = new Progress();
    ListPage page;
    try {
      page = store.listObjectsV2(srcPrefix, null, null, null, listMaxKeys);
    } catch (StoreException e) {
      throw Errors.toIo(e, from); // nothing moved yet
    }
    while (page != null) {
      String token = page.nextContinuationToken();
      // the next page is listed while this one is copied, so its round trip adds no wait (the token resumes after
      // this page's last key, which its deletes do not move)
      Future<ListPage> next = token == null ? null
          : executor.submit(() -> store.listObjectsV2(srcPrefix, null, token, null, listMaxKeys));
      movePage(page.objects(), srcPrefix, dstPrefix, from, openKeys, p);
      page = next == null ? null : nextPage(next, from, p);
    }
    finish(from, to, src, dstPrefix, p);
  }

  /** The page a listing in the background got, or null when it failed (the objects not listed stay where they are). */
  private static ListPage nextPage(Future<ListPage> listing, String from, Progress p) {
    RuntimeException error;
    try {
      return listing.get();
    } catch (ExecutionException e) {
      error = e.getCause() instanceof StoreException se ? Errors.toIo(se, from) : causeOf(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      error = new FsException(Errno.EIO, "rename of " + from + " interrupted");
    }
    p.listingFailed = true;
    p.firstError = p.firstError == null ? error : p.firstError;
    return null;
  }

  private void movePage(List<ListedObject> objects, String srcPrefix, String dstPrefix, String from,
      Set<String> openKeys, Progress p) {
    p.listed += objects.size();
    Semaphore slots = new Semaphore(COPY_PARALLELISM);
    List<Future<String>> copies = new ArrayList<>(objects.size()); // each: the copy's ETag
    for (ListedObject o : objects) {
      slots.acquireUninterruptibly(); // at most COPY_PARALLELISM threads exist, not one parked per object
      try {
        copies.add(executor.submit(() -> {
          try {
            return copyOne(o, dstPrefix + o.key().substring(srcPrefix.length()));
          } finally {
            slots.release();
          }
        }));
      } catch (RuntimeException e) {
        slots.release();
        throw e;
      }
    }
    List<String> copied = new ArrayList<>(objects.size());
    for (int i = 0; i < objects.size(); i++) {
      String key = objects.get(i).key();
      try {
        String etag = copies.get(i).get();
        copied.add(key);
        if (openKeys.contains(key)) {
          p.openCopies.put(key, etag);
        }
        p.markerCopied |= key.equals(srcPrefix);
      } catch (ExecutionException e) {
        p.failedCopies++;
        if (p.firstError == null) {
          p.firstError = causeOf(e);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.failedCopies++;
      }
    }
    p.notDeleted += deleteAll(copied);
    reportMoved(copied, srcPrefix, from, p.reportedDirs);
  }

  /** What a copy or listing in the background threw. */
  private static RuntimeException causeOf(ExecutionException e) {
    return e.getCause() instanceof RuntimeException re ? re : new RuntimeException(e.getCause());
  }

  private String copyOne(ListedObject o, String dstKey) {
    WriteMeta meta = null;
    if (!singleCopy.test(o.size())) {
      ObjectInfo info = store.headObject(o.key());
      meta = new WriteMeta(info.contentType(), info.userMeta());
    }
    return copier.copy(o.key(), dstKey, o.size(), meta).etag();
  }

  /**
   * Deletes one page's copied sources with one DeleteMultipleObjects (a page holds at most 1,000 keys, {@code
   * list_object_max_keys} being at most 1,000, the most one request takes); returns how many could not be deleted.
   */
  private long deleteAll(List<String> keys) {
    if (keys.isEmpty()) {
      return 0;
    }
    try {
      return store.deleteObjects(keys).size();
    } catch (StoreException e) {
      return keys.size();
    }
  }

  /** Updates the namespace and the open files for what moved; EIO if anything stayed behind. */
  private void finish(String from, String to, Node src, String dstPrefix, Progress p) {
    ns.forgetTree(from);
    ns.forgetTree(to);
    boolean incomplete = p.failedCopies > 0 || p.listingFailed;
    boolean leftBehind = incomplete || p.notDeleted > 0;
    if (leftBehind) {
      // objects are left under the old name: it is still a directory, let the next lookup and listing tell
      ns.forgetListing(VPaths.parent(from));
    } else {
      ns.recordRemoved(from, null);
    }
    for (OpenFile f : openFiles.under(from)) {
      String oldPath = f.path();
      String newPath = to + oldPath.substring(from.length());
      f.moveTo(newPath, ns.keys().fileKey(newPath), p.openCopies.get(f.key())); // null: not copied, nothing to read
      openFiles.detach(openFiles.rekey(oldPath, f));
    }
    if (incomplete) {
      ns.forgetListing(VPaths.parent(to)); // some objects moved, some did not: let the next listing tell
    } else {
      ns.recordWritten(to, movedDirectory(src, dstPrefix, p.markerCopied));
    }
    if (leftBehind) {
      RuntimeException e = p.firstError;
      throw new FsException(Errno.EIO, "rename " + from + " -> " + to + ": " + p.failedCopies + " of " + p.listed
          + " objects could not be copied and stay under the old name; " + p.notDeleted
          + " copied sources could not be deleted" + (p.listingFailed ? "; the listing failed, the objects after the "
          + p.listed + " listed stay under the old name" : "") + (e == null ? "" : " (" + e.getMessage() + ")"), e);
    }
  }

  /**
   * Tells {@link MovedNames} each name of a page that moved, by its path below {@code from}: every copied object's,
   * and every directory between it and the renamed one not reported by an earlier page (a directory without a marker
   * object is a name too), with the number its old key had ({@link Inodes#of}).
   */
  private static void reportMoved(List<String> copiedKeys, String srcPrefix, String from, Set<String> reportedDirs) {
    if (!MovedNames.wanted()) {
      return;
    }
    for (String key : copiedKeys) {
      String rel = key.substring(srcPrefix.length());
      boolean marker = rel.endsWith("/");
      if (marker) {
        rel = rel.substring(0, rel.length() - 1);
      }
      for (int slash = rel.indexOf('/'); slash >= 0; slash = rel.indexOf('/', slash + 1)) {
        String dir = rel.substring(0, slash); // implicit or not: its marker's number is the hash of "dir" too
        if (reportedDirs.add(dir)) {
          MovedNames.report(VPaths.child(from, dir), Inodes.of(srcPrefix + dir));
        }
      }
      if (!rel.isEmpty() && (!marker || reportedDirs.add(rel))) {
        MovedNames.report(VPaths.child(from, rel), Inodes.of(key));
      }
    }
  }

  /**
   * The node of a renamed directory, for the new parent's cached listing (without it a listed parent would answer
   * ENOENT for the new name until its listing expires): a marker directory when the source's marker was copied, else
   * an implicit one.
   */
  private Node movedDirectory(Node src, String dstPrefix, boolean markerCopied) {
    if (!markerCopied || src.origin() != Origin.DIR_MARKER) {
      return ns.implicitDir(dstPrefix);
    }
    FileAttr a = src.attr();
    FileAttr moved = new FileAttr(Inodes.of(dstPrefix), a.type(), a.mode(), a.uid(), a.gid(), a.size(), a.atime(),
        a.mtime(), Instant.now(), null);
    return new Node(moved, Origin.DIR_MARKER, dstPrefix, src.objectType(), src.contentType(), src.userMeta(), null,
        Instant.now(), -1);
  }
}
