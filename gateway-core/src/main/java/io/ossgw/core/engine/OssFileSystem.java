package io.ossgw.core.engine;

import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.DirListing;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.FsStats;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.ByteBuffer;

/** WORK IN PROGRESS: the engine's VirtualFileSystem. */
final class OssFileSystem implements VirtualFileSystem {
  OssFileSystem(EngineConfig config, ObjectStore store) {}

  private static FsException todo() {
    return new FsException(Errno.ENOSYS, "not built yet");
  }

  @Override public FileAttr getattr(String path) { throw todo(); }
  @Override public DirListing readdir(String path) { throw todo(); }
  @Override public FileHandle open(String path, OpenFlags flags, Caller caller) { throw todo(); }
  @Override public FileHandle create(String path, int mode, OpenFlags flags, boolean exclusive, Caller caller) { throw todo(); }
  @Override public int read(FileHandle handle, long offset, ByteBuffer dst) { throw todo(); }
  @Override public int write(FileHandle handle, long offset, ByteBuffer src) { throw todo(); }
  @Override public void flush(FileHandle handle) { throw todo(); }
  @Override public void fsync(FileHandle handle, boolean dataOnly) { throw todo(); }
  @Override public void release(FileHandle handle) { throw todo(); }
  @Override public FileAttr mkdir(String path, int mode, Caller caller) { throw todo(); }
  @Override public void unlink(String path) { throw todo(); }
  @Override public void rmdir(String path) { throw todo(); }
  @Override public void rename(String from, String to) { throw todo(); }
  @Override public FileAttr setattr(String path, SetAttr changes, FileHandle handle, Caller caller) { throw todo(); }
  @Override public FileAttr symlink(String target, String linkPath, Caller caller) { throw todo(); }
  @Override public String readlink(String path) { throw todo(); }
  @Override public FsStats statfs() { throw todo(); }
  @Override public void close() {}
}
