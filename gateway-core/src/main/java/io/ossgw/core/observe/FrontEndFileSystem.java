package io.ossgw.core.observe;

import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.ForwardingFileSystem;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's file system as one front end (fuse, nfs, smb) sees it: a forwarding decorator that counts the bytes the
 * front end reads and writes (the DESIGN.md rule: metrics are decorators around the VFS SPI). Every call, close
 * included, goes to the engine's file system unchanged.
 */
public final class FrontEndFileSystem extends ForwardingFileSystem {
  private final String frontEnd;
  private final LongAdder readBytes = new LongAdder();
  private final LongAdder writtenBytes = new LongAdder();

  /** @param frontEnd the front end's name, a metric label: {@code fuse}, {@code nfs} or {@code smb} */
  public FrontEndFileSystem(VirtualFileSystem fs, String frontEnd) {
    super(fs);
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
}
