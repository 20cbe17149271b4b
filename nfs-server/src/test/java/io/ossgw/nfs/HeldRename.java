package io.ossgw.nfs;

import io.ossgw.core.vfs.ForwardingFileSystem;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The engine, with one rename held open: once the engine has renamed {@link #hold} the call waits (up to 30 seconds)
 * until the test {@link #release}s it, so a request can arrive while a RENAME is half done (the object moved, the
 * handle table and the open files not yet). Every other call goes straight to the engine.
 */
public final class HeldRename extends ForwardingFileSystem {
  private final CountDownLatch renamed = new CountDownLatch(1);
  private final CountDownLatch released = new CountDownLatch(1);
  private volatile String hold;

  public HeldRename(VirtualFileSystem engine) {
    super(engine);
  }

  /** Holds the next rename of {@code from} (an engine path, "/dir/name"). */
  public void hold(String from) {
    this.hold = from;
  }

  /** Waits until the engine has done the held rename; false after {@code seconds} without it. */
  public boolean awaitRenamed(int seconds) throws InterruptedException {
    return renamed.await(seconds, TimeUnit.SECONDS);
  }

  /** Lets the held rename return. */
  public void release() {
    released.countDown();
  }

  @Override
  public void rename(String from, String to) {
    fs.rename(from, to);
    if (from.equals(hold)) {
      renamed.countDown();
      try {
        released.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
