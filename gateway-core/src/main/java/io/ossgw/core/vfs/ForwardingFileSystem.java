package io.ossgw.core.vfs;

import java.nio.ByteBuffer;

/**
 * A {@link VirtualFileSystem} that hands every call to {@link #fs} unchanged: the base of the decorators around the
 * engine (metrics, directory times), which override only the operations they add to. The default methods of the
 * interface ({@code getattrBeforeCreate}, {@code mknod}, {@code fgetattr},
 * {@code staleVersion}, {@code savedInMemory}) are forwarded too, so a decorator never falls
 * back to a default the wrapped file system overrides.
 */
public abstract class ForwardingFileSystem implements VirtualFileSystem {
  /** The wrapped file system. */
  protected final VirtualFileSystem fs;

  /** @param fs the file system every call goes to */
  protected ForwardingFileSystem(VirtualFileSystem fs) {
    this.fs = fs;
  }

  @Override
  public FileAttr getattr(String path) {
    return fs.getattr(path);
  }

  @Override
  public FileAttr getattrBeforeCreate(String path) {
    return fs.getattrBeforeCreate(path);
  }

  @Override
  public DirPage readdir(String path, String after, int maxEntries) {
    return fs.readdir(path, after, maxEntries);
  }

  @Override
  public FileHandle open(String path, OpenFlags flags, Caller caller) {
    return fs.open(path, flags, caller);
  }

  @Override
  public FileHandle create(String path, int mode, OpenFlags flags, boolean exclusive, Caller caller) {
    return fs.create(path, mode, flags, exclusive, caller);
  }

  @Override
  public int read(FileHandle handle, long offset, ByteBuffer dst) {
    return fs.read(handle, offset, dst);
  }

  @Override
  public int write(FileHandle handle, long offset, ByteBuffer src) {
    return fs.write(handle, offset, src);
  }

  @Override
  public void flush(FileHandle handle) {
    fs.flush(handle);
  }

  @Override
  public void fsync(FileHandle handle, boolean dataOnly) {
    fs.fsync(handle, dataOnly);
  }

  @Override
  public void release(FileHandle handle) {
    fs.release(handle);
  }

  @Override
  public FileAttr mkdir(String path, int mode, Caller caller) {
    return fs.mkdir(path, mode, caller);
  }

  @Override
  public void unlink(String path) {
    fs.unlink(path);
  }

  @Override
  public void rmdir(String path) {
    fs.rmdir(path);
  }

  @Override
  public void rename(String from, String to) {
    fs.rename(from, to);
  }

  @Override
  public FileAttr setattr(String path, SetAttr changes, FileHandle handle, Caller caller) {
    return fs.setattr(path, changes, handle, caller);
  }

  @Override
  public FileAttr symlink(String target, String linkPath, Caller caller) {
    return fs.symlink(target, linkPath, caller);
  }

  @Override
  public FileAttr mknod(String path, FileType type, int mode, long rdev, Caller caller) {
    return fs.mknod(path, type, mode, rdev, caller);
  }

  @Override
  public FileAttr fgetattr(FileHandle handle) {
    return fs.fgetattr(handle);
  }

  @Override
  public boolean staleVersion(FileHandle handle) {
    return fs.staleVersion(handle);
  }

  @Override
  public boolean savedInMemory(FileHandle handle) {
    return fs.savedInMemory(handle);
  }

  @Override
  public String readlink(String path) {
    return fs.readlink(path);
  }

  @Override
  public FsStats statfs() {
    return fs.statfs();
  }

  @Override
  public void close() {
    fs.close();
  }
}
