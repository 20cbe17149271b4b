package io.ossgw.core.engine;

import io.ossgw.core.meta.Node;
import io.ossgw.core.meta.Origin;
import io.ossgw.core.meta.PosixMeta;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.SetAttr;
import java.time.Instant;
import java.util.Map;

/**
 * chmod, chown and utimens of objects nobody is writing: the object is copied onto itself with
 * {@code x-oss-metadata-directive: REPLACE} and its full metadata, changed fields replaced (ossfs does the same,
 * reference/ossfs-compat.md §3.4), through UploadPartCopy above the single-copy limit. An implicit directory gets a
 * {@code dir/} marker carrying the new attributes.
 */
final class AttrWriter {
  private final ObjectStore store;
  private final ObjectCopier copier;
  private final Namespace ns;

  AttrWriter(ObjectStore store, ObjectCopier copier, Namespace ns) {
    this.store = store;
    this.copier = copier;
    this.ns = ns;
  }

  /** The attributes after applying a change: permission bits, owner, times; ctime becomes now. */
  static FileAttr apply(FileAttr a, SetAttr c) {
    Instant now = Instant.now();
    return new FileAttr(a.ino(), a.type(),
        c.mode() != null ? c.mode() & 07777 : a.mode(),
        c.uid() != null ? c.uid() : a.uid(),
        c.gid() != null ? c.gid() : a.gid(),
        a.size(),
        c.atime() != null ? c.atime() : a.atime(),
        c.mtime() != null ? c.mtime() : a.mtime(),
        now,
        a.etag()).withRdev(a.rdev());
  }

  /** Writes new attributes to the object behind {@code path} and caches the result. */
  Node write(String path, Node node, FileAttr attrs) {
    try {
      Node full = node.metaKnown() ? node : ns.lookup(path);
      if (full.origin() == Origin.IMPLICIT_DIR || full.origin() == Origin.PREFIX) {
        String dirKey = ns.keys().dirKey(path);
        WriteMeta meta = PosixMeta.dirMeta(attrs, Map.of());
        WriteResult r = store.putObject(dirKey, ContentSource.empty(), meta);
        return record(path, dirKey, 0, r, meta, "Normal");
      }
      Map<String, String> base = full.userMeta() == null ? Map.of() : full.userMeta();
      String ct = full.contentType() == null ? WriteMeta.OCTET_STREAM : full.contentType();
      WriteMeta meta = new WriteMeta(ct, PosixMeta.encode(attrs, base));
      long size = full.isDirectory() ? 0 : full.attr().size();
      WriteResult r = copier.copy(full.objectKey(), full.objectKey(), size, meta);
      return record(path, full.objectKey(), size, r, meta, full.objectType());
    } catch (StoreException e) {
      ns.forgetTree(path);
      throw Errors.toIo(e, path);
    }
  }

  private Node record(String path, String key, long size, WriteResult r, WriteMeta meta, String type) {
    Node n = ns.fromHead(key, new ObjectInfo(key, size, r.etag(), Instant.now(), type, meta.contentType(), meta.userMeta(), -1));
    ns.recordWritten(path, n);
    return n;
  }
}
