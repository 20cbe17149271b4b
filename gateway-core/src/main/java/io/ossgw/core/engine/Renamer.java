package io.ossgw.core.engine;

import io.ossgw.core.meta.Inodes;
import io.ossgw.core.meta.Node;
import io.ossgw.core.meta.Origin;
import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ListedObject;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * rename(2) on an object store, which has no rename: a file is copied (CopyObject, or UploadPartCopy above the
 * single-copy limit) and the source deleted; a directory is moved object by object, one listing page at a time
 * ({@link DirectoryRenamer}), each source deleted only after its copy exists, so a failure half-way leaves every byte
 * under one of the two names (reported as EIO), never lost. Not atomic, as with every OSS filesystem (SEMANTICS.md).
 */
final class Renamer {
  private final ObjectStore store;
  private final DirectoryRenamer directories;
  private final Namespace ns;
  private final OpenFiles openFiles;
  private final ObjectCopier copier;
  private final long singlepartLimit;

  Renamer(ObjectStore store, ExecutorService executor, Namespace ns, OpenFiles openFiles, ObjectCopier copier,
      int listMaxKeys, long singlepartLimit) {
    this.singlepartLimit = singlepartLimit;
    this.store = store;
    this.directories = new DirectoryRenamer(store, executor, ns, openFiles, copier, listMaxKeys, this::singleCopy);
    this.ns = ns;
    this.openFiles = openFiles;
    this.copier = copier;
  }

  void rename(String from, String to) {
    VPaths.check(from);
    VPaths.check(to);
    if (VPaths.isRoot(from) || VPaths.isRoot(to)) {
      throw new FsException(Errno.EBUSY, "cannot rename the mount root");
    }
    if (from.equals(to)) {
      ns.resolve(from); // POSIX rename(2): a no-op when the name exists, ENOENT when it does not
      return;
    }
    if (VPaths.isSameOrBelow(to, from)) {
      throw new FsException(Errno.EINVAL, "cannot move " + from + " into itself");
    }
    Node src = ns.resolve(from);
    Node parent = ns.resolve(VPaths.parent(to));
    if (!parent.isDirectory()) {
      throw new FsException(Errno.ENOTDIR, VPaths.parent(to));
    }
    Node dst = ns.resolveOrNull(to);
    if (src.isDirectory()) {
      if (dst != null) {
        if (!dst.isDirectory()) {
          throw new FsException(Errno.ENOTDIR, to);
        }
        removeEmptyTarget(to, dst);
      }
      directories.rename(from, to, src);
    } else {
      if (dst != null && dst.isDirectory()) {
        throw new FsException(Errno.EISDIR, to);
      }
      renameFile(from, to, src, dst);
    }
  }

  /**
   * Renames a file or symlink over nothing, a file, a symlink or a file not yet uploaded. The open files of both names
   * are locked for the whole rename (in path order), so no upload of either runs between the decision and the move:
   * an upload of a replaced file after the copy would put it back over the renamed object.
   */
  private void renameFile(String from, String to, Node src, Node dst) {
    String dstKey = ns.keys().fileKey(to);
    OpenFile open = openFiles.get(from);
    OpenFile replaced = openFiles.get(to);
    List<OpenFile> held = lockInPathOrder(open, replaced);
    try {
      if (open != null && open.pendingCreate() && !open.unlinked()) {
        renamePending(from, to, dstKey, open, replaced, dst);
        return;
      }
      if (open != null && open.hasLocalState()) {
        open.flush();
        src = open.currentNode();
      }
      Node moved = copyAndDelete(from, to, dstKey, src);
      openFiles.detach(replaced); // the rename replaced it: its unsaved state must never be uploaded over the new file
      OpenFile reader = openFiles.get(from);
      if (reader != null) {
        reader.moveTo(to, dstKey, moved.attr().etag());
        openFiles.detach(openFiles.rekey(from, reader));
      }
    } finally {
      for (int i = held.size() - 1; i >= 0; i--) {
        held.get(i).lock.unlock();
      }
    }
  }

  /**
   * A file created and never uploaded has nothing to copy: it moves in the gateway and is uploaded under its new name.
   * If the new name holds an object in OSS, the file is uploaded over it now (one PUT: the target holds the old or the
   * new file, never neither), else a later unlink of the moved file, which uploads nothing, would leave the replaced
   * object in OSS. A pending file at the new name is discarded.
   */
  private void renamePending(String from, String to, String dstKey, OpenFile open, OpenFile replaced, Node dst) {
    String fromKey = open.key();
    open.moveTo(to, dstKey);
    if (dst != null && dst.origin() != Origin.PENDING) {
      try {
        open.flush();
      } catch (RuntimeException e) {
        open.moveTo(from, fromKey); // not uploaded: the rename did not happen
        throw e;
      }
    }
    openFiles.detach(openFiles.rekey(from, open));
    openFiles.detach(replaced);
    ns.recordRemoved(from, null);
    ns.recordWritten(to, open.currentNode());
  }

  /** Copies the file's object to its new key and deletes the old one; returns the new name's node. */
  private Node copyAndDelete(String from, String to, String dstKey, Node src) {
    try {
      WriteMeta meta = null;
      long size = src.attr().size();
      if (!singleCopy(size)) {
        Node full = src.metaKnown() ? src : ns.lookup(from);
        meta = new WriteMeta(full.contentType(), full.userMeta());
      }
      WriteResult r = copier.copy(src.objectKey(), dstKey, size, meta);
      store.deleteObject(src.objectKey());
      FileAttr a = src.attr();
      FileAttr moved = new FileAttr(Inodes.of(dstKey), a.type(), a.mode(), a.uid(), a.gid(), a.size(), a.atime(), a.mtime(),
          Instant.now(), r.etag()).withRdev(a.rdev());
      Node dstNode = new Node(moved, Origin.FILE, dstKey, src.objectType(), src.contentType(), src.userMeta(),
          src.symlinkTarget(), Instant.now(), src.nextAppendPosition());
      ns.recordRemoved(from, src.objectKey());
      ns.recordWritten(to, dstNode);
      return dstNode;
    } catch (StoreException e) {
      ns.forgetTree(from);
      ns.forgetTree(to);
      throw Errors.toIo(e, from);
    }
  }

  /** Locks the given open files (nulls skipped) in path order, so two renames of one pair cannot deadlock. */
  private static List<OpenFile> lockInPathOrder(OpenFile a, OpenFile b) {
    List<OpenFile> files = new ArrayList<>(2);
    if (a != null) {
      files.add(a);
    }
    if (b != null && b != a) {
      files.add(b);
    }
    files.sort(java.util.Comparator.comparing(OpenFile::path));
    List<OpenFile> held = new ArrayList<>(2);
    for (OpenFile f : files) {
      f.lock.lock();
      held.add(f);
    }
    return held;
  }

  /** True when one CopyObject moves it (keeping the source's metadata); bigger objects need their metadata. */
  private boolean singleCopy(long size) {
    return size <= singlepartLimit;
  }

  /** An existing target directory must be empty; its marker goes so the source's (or none) takes its place. */
  private void removeEmptyTarget(String to, Node dst) {
    String dirKey = ns.keys().dirKey(to);
    ListPage page;
    try {
      page = store.listObjectsV2(dirKey, "/", null, null, 2);
    } catch (StoreException e) {
      throw Errors.toIo(e, to);
    }
    for (ListedObject o : page.objects()) {
      if (!o.key().equals(dirKey)) {
        throw new FsException(Errno.ENOTEMPTY, to);
      }
    }
    if (!page.commonPrefixes().isEmpty() || !openFiles.under(to).isEmpty()) {
      throw new FsException(Errno.ENOTEMPTY, to);
    }
    if (dst.origin() == Origin.DIR_MARKER || dst.origin() == Origin.PREFIX) {
      try {
        store.deleteObject(dirKey);
      } catch (StoreException e) {
        throw Errors.toIo(e, to);
      }
    }
  }
}
