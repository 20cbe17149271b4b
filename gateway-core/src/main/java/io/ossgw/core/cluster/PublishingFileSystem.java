package io.ossgw.core.cluster;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FileType;
import io.ossgw.core.vfs.ForwardingFileSystem;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Publishes an {@link Invalidation} after each mutation that succeeded, so the other gateways of the cluster drop
 * what they cached about it (active mode, issue 23). When a change is published:
 *
 * <ul>
 *   <li>file data: after a {@code flush}, {@code fsync} or {@code release} of a handle that was created, truncated or
 *       written through (that is when the bytes are in OSS); not per {@code write}, which only stages;
 *   <li>{@code mkdir}, {@code unlink}, {@code rmdir}, {@code setattr}, {@code symlink}, {@code mknod}: the path;
 *   <li>{@code rename}: both names, each with its whole tree (a directory's children change their keys too).
 * </ul>
 *
 * A failed operation publishes nothing; publishing never fails an operation ({@link InvalidationChannel#publish}).
 */
public final class PublishingFileSystem extends ForwardingFileSystem {
  private final InvalidationChannel channel;
  private final String node;
  private final String bucket;
  private final String prefix;
  private final Set<FileHandle> dirty = ConcurrentHashMap.newKeySet();

  /**
   * @param fs the engine's file system
   * @param channel where invalidations go
   * @param node this node's id
   * @param bucket the engine's bucket
   * @param prefix the engine's prefix: "" or {@code "a/b/"}
   */
  public PublishingFileSystem(VirtualFileSystem fs, InvalidationChannel channel, String node, String bucket,
      String prefix) {
    super(fs);
    this.channel = channel;
    this.node = node;
    this.bucket = bucket;
    this.prefix = prefix;
  }

  /** The object key of a path of this mount, without a trailing slash. */
  String keyOf(String path) {
    if (path.equals("/")) {
      return prefix.isEmpty() ? "" : prefix.substring(0, prefix.length() - 1);
    }
    return prefix + path.substring(1);
  }

  private void publish(String path, boolean tree) {
    channel.publish(new Invalidation(node, bucket, keyOf(path), tree));
  }

  @Override
  public FileHandle open(String path, OpenFlags flags, Caller caller) {
    FileHandle h = fs.open(path, flags, caller);
    if (flags.truncate()) {
      dirty.add(h);
    }
    return h;
  }

  @Override
  public FileHandle create(String path, int mode, OpenFlags flags, boolean exclusive, Caller caller) {
    FileHandle h = fs.create(path, mode, flags, exclusive, caller);
    dirty.add(h);
    return h;
  }

  @Override
  public int write(FileHandle handle, long offset, ByteBuffer src) {
    int n = fs.write(handle, offset, src);
    dirty.add(handle);
    return n;
  }

  @Override
  public void flush(FileHandle handle) {
    fs.flush(handle);
    if (dirty.remove(handle)) {
      publish(handle.path(), false);
    }
  }

  @Override
  public void fsync(FileHandle handle, boolean dataOnly) {
    fs.fsync(handle, dataOnly);
    if (dirty.remove(handle)) {
      publish(handle.path(), false);
    }
  }

  @Override
  public void release(FileHandle handle) {
    try {
      fs.release(handle);
    } finally {
      // release logs its upload errors instead of throwing: publish anyway, a needless invalidation costs one HEAD
      if (dirty.remove(handle)) {
        publish(handle.path(), false);
      }
    }
  }

  @Override
  public FileAttr mkdir(String path, int mode, Caller caller) {
    FileAttr a = fs.mkdir(path, mode, caller);
    publish(path, false);
    return a;
  }

  @Override
  public void unlink(String path) {
    fs.unlink(path);
    publish(path, false);
  }

  @Override
  public void rmdir(String path) {
    fs.rmdir(path);
    publish(path, true);
  }

  @Override
  public void rename(String from, String to) {
    fs.rename(from, to);
    publish(from, true);
    publish(to, true);
  }

  @Override
  public FileAttr setattr(String path, SetAttr changes, FileHandle handle, Caller caller) {
    FileAttr a = fs.setattr(path, changes, handle, caller);
    publish(path, false);
    if (handle != null) {
      dirty.add(handle); // ftruncate may stage the new size until the handle's next flush
    }
    return a;
  }

  @Override
  public FileAttr symlink(String target, String linkPath, Caller caller) {
    FileAttr a = fs.symlink(target, linkPath, caller);
    publish(linkPath, false);
    return a;
  }

  @Override
  public FileAttr mknod(String path, FileType type, int mode, long rdev, Caller caller) {
    FileAttr a = fs.mknod(path, type, mode, rdev, caller);
    publish(path, false);
    return a;
  }
}
