package io.ossgw.core.engine;

import io.ossgw.core.meta.Inodes;
import io.ossgw.core.meta.Node;
import io.ossgw.core.meta.PosixMeta;
import io.ossgw.core.namespace.KeyMapper;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileType;
import io.ossgw.core.vfs.FsException;
import java.time.Instant;
import java.util.Map;

/**
 * mknod(2) for fifos, character and block devices and sockets, in ossfs's format ({@code s3fs_mknod} →
 * {@code create_file_object}): one zero-byte PutObject of the file key whose {@code x-oss-meta-mode} is the full
 * st_mode (type bits included), with uid/gid/times as for any file, plus {@code x-oss-meta-rdev} for devices (an
 * addition of ours: ossfs keeps no device number). Reading them back is {@link PosixMeta#fromHead}'s job.
 */
final class SpecialFiles {
  private final ObjectStore store;
  private final KeyMapper keys;
  private final Namespace ns;

  SpecialFiles(ObjectStore store, KeyMapper keys, Namespace ns) {
    this.store = store;
    this.keys = keys;
    this.ns = ns;
  }

  /**
   * Creates the node; the caller has checked the path and that its parent is a directory.
   *
   * @throws FsException EINVAL (not a special type), EEXIST, EIO
   */
  FileAttr mknod(String path, FileType type, int mode, long rdev, Caller caller) {
    if (type == null || !type.special()) {
      throw new FsException(Errno.EINVAL, path + ": mknod of type " + type);
    }
    if (ns.resolveOrNull(path) != null) {
      throw new FsException(Errno.EEXIST, path);
    }
    String key = keys.fileKey(path);
    Instant now = Instant.now();
    FileAttr a = new FileAttr(Inodes.of(key), type, mode & 07777, caller.uid(), caller.gid(), 0, now, now, now, null,
        type.device() ? rdev : 0, 1);
    WriteMeta meta = new WriteMeta(WriteMeta.OCTET_STREAM, PosixMeta.encode(a, Map.of()));
    try {
      WriteResult r = store.putObject(key, ContentSource.empty(), meta);
      Node n = ns.fromHead(key, new ObjectInfo(key, 0, r.etag(), now, "Normal", meta.contentType(), meta.userMeta(), -1));
      ns.recordWritten(path, n);
      return n.attr();
    } catch (StoreException e) {
      throw Errors.toIo(e, path);
    }
  }
}
