package io.ossgw.core.engine;

import io.ossgw.core.read.ReadAhead;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import java.util.concurrent.atomic.AtomicBoolean;

/** One open(2) of a file: the shared {@link OpenFile} plus this descriptor's flags and read-ahead state. */
final class OssHandle implements FileHandle {
  final OpenFile file;
  private final OpenFlags flags;
  private final AtomicBoolean released = new AtomicBoolean();
  /** Guarded by {@code this}. */
  ReadAhead reader;
  /** Set once a read returned bytes (never cleared): the object version is pinned for good. */
  volatile boolean readSomething;

  OssHandle(OpenFile file, OpenFlags flags) {
    this.file = file;
    this.flags = flags;
  }

  static OssHandle of(FileHandle h) {
    if (h instanceof OssHandle o) {
      return o;
    }
    throw new FsException(Errno.EBADF, "not a handle of this file system: " + h);
  }

  @Override
  public String path() {
    return file.path();
  }

  @Override
  public OpenFlags flags() {
    return flags;
  }

  /** True the first time only: release runs once per handle. */
  boolean markReleased() {
    return released.compareAndSet(false, true);
  }

  synchronized void closeReader() {
    if (reader != null) {
      reader.close();
      reader = null;
    }
  }
}
