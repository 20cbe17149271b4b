package io.ossgw.core.vfs;

import java.nio.ByteBuffer;

/**
 * The one narrow interface every front end (FUSE, NFS, SMB through FUSE) drives. Paths are absolute within the mount or
 * export: {@code "/"} is its root, components are separated by {@code '/'}, there is no trailing slash, and each
 * component is at most 255 bytes of UTF-8 (longer gives {@link Errno#ENAMETOOLONG}).
 *
 * <p>All methods block and are thread-safe. Errors are {@link FsException}s carrying a POSIX {@link Errno}; ENOENT is
 * only ever reported for names OSS says do not exist, never for a failed request (that is EIO). SEMANTICS.md lists, per
 * operation, what it costs in OSS requests.
 *
 * <p>Caching, metrics and errno mapping are forwarding decorators around this interface, not branches inside the
 * implementation.
 */
public interface VirtualFileSystem extends AutoCloseable {

  /** Attributes of a path (POSIX stat(2); RFC 1813 GETATTR/LOOKUP). @throws FsException ENOENT, ENOTDIR, EIO */
  FileAttr getattr(String path);

  /**
   * {@link #getattr} of a name the caller is about to create (NFS CREATE, RFC 1813 §3.3.8: is something there
   * already?): the same answer, found the way that is cheapest when nothing is there. The engine asks OSS one
   * ListObjectsV2 for a name no cache knows instead of a HeadObject and a ListObjectsV2 (a name that does exist costs
   * one request more than {@link #getattr}: SEMANTICS.md "Request costs"). The default is {@link #getattr}.
   *
   * @throws FsException ENOENT when there is no such entry, ENOTDIR, EIO
   */
  default FileAttr getattrBeforeCreate(String path) {
    return getattr(path);
  }

  /**
   * One page of a directory's entries, with attributes (readdir(3); RFC 1813 READDIR/READDIRPLUS; RFC 8881 READDIR): the
   * entries whose {@link DirEntry#position() position} sorts after {@code after}, in position order. A listing is read
   * page after page, each resuming after the last entry of the one before, so no layer holds a whole directory: the
   * engine serves pages from ListObjectsV2 pages (continuation token or {@code start-after}), or from its cached
   * listing of a directory small enough to keep whole. An entry created or removed between two pages shows in a later
   * page if it sorts after the position; an entry that exists throughout is returned exactly once.
   *
   * @param after the position of the last entry already returned, or null to start at the beginning
   * @param maxEntries the most entries to return (at least 1)
   * @throws FsException ENOENT, ENOTDIR, EIO
   */
  DirPage readdir(String path, String after, int maxEntries);

  /**
   * Every entry of a directory, read page by page: the whole listing in memory at once, so only for directories known
   * to be small (tests, tools). Front ends page with {@link #readdir(String, String, int)}.
   *
   * @throws FsException ENOENT, ENOTDIR, EIO
   */
  default DirListing readdir(String path) {
    java.util.List<DirEntry> all = new java.util.ArrayList<>();
    String after = null;
    while (true) {
      DirPage p = readdir(path, after, 1000);
      all.addAll(p.entries());
      if (p.eof()) {
        return new DirListing(all);
      }
      after = p.resumeAfter(after);
    }
  }

  /**
   * Opens an existing regular file. With {@link OpenFlags#truncate()} the file is emptied, whatever the access mode:
   * Linux truncates on {@code O_RDONLY|O_TRUNC} too (open(2) leaves it unspecified; the kernel checks write permission
   * first).
   *
   * @throws FsException ENOENT, EISDIR, EIO
   */
  FileHandle open(String path, OpenFlags flags, Caller caller);

  /**
   * Creates and opens a regular file (open(2) with O_CREAT). Nothing is written to OSS until the first flush, fsync or
   * release: there is no zero-byte PutObject at create.
   *
   * @param mode permission bits
   * @param exclusive O_EXCL: fail with EEXIST if the name exists
   * @throws FsException EEXIST, ENOENT (parent missing), ENOTDIR, ENAMETOOLONG, EISDIR
   */
  FileHandle create(String path, int mode, OpenFlags flags, boolean exclusive, Caller caller);

  /**
   * Reads up to {@code dst.remaining()} bytes at {@code offset} into {@code dst}.
   *
   * @return bytes read; fewer than asked only at end of file, 0 at or past it
   * @throws FsException EIO (also when the object changed under an open handle), EBADF
   */
  int read(FileHandle handle, long offset, ByteBuffer dst);

  /**
   * Writes {@code src.remaining()} bytes at {@code offset} into the file's local staging.
   *
   * @return bytes written (always all of them)
   * @throws FsException EBADF (not open for writing), ENOSPC (staging disk full), EFBIG, EIO
   */
  int write(FileHandle handle, long offset, ByteBuffer src);

  /**
   * Called on every close(2) of a descriptor: uploads dirty data and returns only once it is in OSS. The one exception
   * (SEMANTICS.md, "No zero-byte PUT at create"): the first close of a new file given no byte and no attribute yet
   * leaves its upload to the next close, fsync or {@link #release}.
   *
   * @throws FsException EIO when the upload failed (the data stays staged and the next flush retries)
   */
  void flush(FileHandle handle);

  /** fsync(2): like {@link #flush}; the bytes are in OSS when it returns. */
  void fsync(FileHandle handle, boolean dataOnly);

  /** The last close of a handle: uploads anything still dirty and frees the handle. Errors are logged. */
  void release(FileHandle handle);

  /** mkdir(2): a {@code dir/} marker object with ossfs metadata. @throws FsException EEXIST, ENOENT, ENOTDIR */
  FileAttr mkdir(String path, int mode, Caller caller);

  /** unlink(2): DeleteObject. @throws FsException ENOENT, EISDIR */
  void unlink(String path);

  /** rmdir(2): only an empty directory. @throws FsException ENOENT, ENOTDIR, ENOTEMPTY, EBUSY (the root) */
  void rmdir(String path);

  /**
   * rename(2): files by CopyObject (UploadPartCopy above the single-copy limit) then DeleteObject; directories by
   * copying every object below them (in parallel) and deleting each source only after its copy exists. Replaces an
   * existing target file, or an empty target directory.
   *
   * @throws FsException ENOENT, EEXIST/ENOTEMPTY, EISDIR, ENOTDIR, EINVAL (into itself), EIO (partial failure: both
   *     names may then hold objects, none is lost)
   */
  void rename(String from, String to);

  /**
   * Changes mode, owner, size or times (chmod/chown/truncate/utimens; RFC 1813 SETATTR). Metadata changes are a
   * CopyObject of the object onto itself with {@code x-oss-metadata-directive: REPLACE}.
   *
   * @param handle an open handle of the file (ftruncate), or null
   * @throws FsException ENOENT, EISDIR (size on a directory), EIO
   */
  FileAttr setattr(String path, SetAttr changes, FileHandle handle, Caller caller);

  /** symlink(2): target stored in the object body (or in {@code x-oss-meta-symlink-target} with symlink_in_meta). */
  FileAttr symlink(String target, String linkPath, Caller caller);

  /**
   * mknod(2)/mkfifo(3)/bind(2) of an AF_UNIX socket; RFC 1813 MKNOD: one zero-byte PutObject whose {@code
   * x-oss-meta-mode} carries the type bits (ossfs's format), plus {@code x-oss-meta-rdev} for devices. The node is only
   * a name: opening it is the client kernel's business, and no data passes through it between hosts.
   *
   * @param type {@link FileType#FIFO}, {@link FileType#CHARACTER_DEVICE}, {@link FileType#BLOCK_DEVICE} or
   *     {@link FileType#SOCKET}; any other type is EINVAL
   * @param mode permission bits (07777)
   * @param rdev device number of a device (Linux {@code makedev} encoding), ignored for other types
   * @throws FsException EEXIST, ENOENT (parent missing), ENOTDIR, ENAMETOOLONG, EINVAL, EIO; ENOSYS from a file
   *     system that has no special files
   */
  default FileAttr mknod(String path, FileType type, int mode, long rdev, Caller caller) {
    throw new FsException(Errno.ENOSYS, "mknod " + path);
  }

  /**
   * fstat(2) of an open file: its attributes from the handle, also after its name was unlinked or renamed (then with
   * {@code nlink} 0 when unlinked). The default looks the handle's path up again.
   *
   * @throws FsException EBADF, EIO
   */
  default FileAttr fgetattr(FileHandle handle) {
    return getattr(handle.path());
  }

  /**
   * Whether an open handle reads an older version of its object than the file system now knows of (another client
   * replaced the object and this file system's attributes of the name, as getattr shows them, have the new version),
   * while the handle holds nothing unsaved. A front end that shares one handle among many stateless calls (NFS READ)
   * then opens again, as a new open(2) would; reads through the old handle keep the version it pinned (SEMANTICS.md
   * "Reads"). The default: false (a file system without versions).
   *
   * @throws FsException EIO when the current attributes cannot be had
   */
  default boolean staleVersion(FileHandle handle) {
    return false;
  }

  /**
   * Whether the open file's bytes are staged in pooled memory and every one of them is saved in OSS (an fsync uploaded
   * them, nothing changed since): releasing the handle then uploads nothing and gives the write pool its buffers back.
   * A front end without a close (NFSv3, whose clients send COMMIT when a file is closed) releases such a handle right
   * after the COMMIT, instead of holding the buffers until its idle release. The default: false.
   */
  default boolean savedInMemory(FileHandle handle) {
    return false;
  }

  /** readlink(2). @throws FsException ENOENT, EINVAL (not a symlink) */
  String readlink(String path);

  /** statfs(2). */
  FsStats statfs();

  /** Flushes every open handle and frees resources; the store is closed by its owner. */
  @Override
  void close();
}
