package io.ossgw.core.observe;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.DirListing;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FsStats;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's file system as one front end (fuse, nfs, smb) sees it: a forwarding decorator that counts the bytes the
 * front end reads and writes (the DESIGN.md rule: metrics are decorators around the VFS SPI). Every call, close
 * included, goes to the engine's file system unchanged.
 */
public final class FrontEndFileSystem implements VirtualFileSystem {
  private final VirtualFileSystem fs;
  private final String frontEnd;
  private final LongAdder readBytes = new LongAdder();
  private final LongAdder writtenBytes = new LongAdder();

  /** @param frontEnd the front end's name, a metric label: {@code fuse}, {@code nfs} or {@code smb} */
  public FrontEndFileSystem(VirtualFileSystem fs, String frontEnd) {
    this.fs = fs;
    this.frontEnd = frontEnd;
  }

  /** The front end's name. */
  public String frontEnd() {
    return frontEnd;
  }

  /** Bytes returned by {@link #read} since creation. */
  public long readBytes() {
    return readBytes.sum();
  }

  /** Bytes accepted by {@link #write} since creation. */
  public long writtenBytes() {
    return writtenBytes.sum();
  }

  @Override
  public int read(FileHandle handle, long offset, ByteBuffer dst) {
    int n = fs.read(handle, offset, dst);
    if (n > 0) {
      readBytes.add(n);
    }
    return n;
  }

  @Override
  public int write(FileHandle handle, long offset, ByteBuffer src) {
    int n = fs.write(handle, offset, src);
    if (n > 0) {
      writtenBytes.add(n);
    }
    return n;
  }

  @Override
  public FileAttr getattr(String path) {
    return fs.getattr(path);
  }

  @Override
  public DirListing readdir(String path) {
    return fs.readdir(path);
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
  public FileAttr mknod(String path, io.ossgw.core.vfs.FileType type, int mode, long rdev, Caller caller) {
    return fs.mknod(path, type, mode, rdev, caller);
  }

  @Override
  public FileAttr fgetattr(FileHandle handle) {
    return fs.fgetattr(handle);
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
