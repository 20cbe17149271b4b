package io.ossgw.nfs.fs;

import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.nfs.xdr.Payload;
import java.nio.ByteBuffer;

/** WRITE data (v3 and v4.1) handed to the engine as it arrived: one VFS write per received part, no copy before it. */
public final class Writes {
  private Writes() {}

  /**
   * Writes {@code data} at {@code offset} through {@code h}, part after part at consecutive offsets.
   *
   * @return bytes written (the payload's length)
   * @throws io.ossgw.core.vfs.FsException from the VFS
   */
  public static int write(VirtualFileSystem fs, FileHandle h, long offset, Payload data) {
    if (data.length() == 0) {
      return fs.write(h, offset, ByteBuffer.allocate(0)); // as before: the engine decides what an empty write does
    }
    int done = 0;
    for (ByteBuffer part : data.parts()) {
      done += fs.write(h, offset + done, part); // the VFS writes all of it (VirtualFileSystem#write)
    }
    return done;
  }
}
