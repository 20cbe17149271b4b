package io.ossgw.nfs;

import io.ossgw.core.vfs.ForwardingFileSystem;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The engine, with one rename held open: once the engine has renamed {@link #hold} the call waits (up to 30 seconds)
 * until the test {@link #release}s it, so a request can arrive while a RENAME is half done (the object moved, the
 * handle table and the open files not yet). It can also hold one getattr after it answered ({@link #holdGetattr}),
 * so a request that has checked its object can be kept there while a whole RENAME runs. Every other call goes
 * straight to the engine.
 */
public final class HeldRename extends ForwardingFileSystem {
  private final CountDownLatch renamed = new CountDownLatch(1);
  private final CountDownLatch released = new CountDownLatch(1);
  private final CountDownLatch statted = new CountDownLatch(1);
  private final CountDownLatch statReleased = new CountDownLatch(1);
  private volatile String hold;
  private volatile String holdStat;

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

  /** Holds the next getattr of {@code path} (an engine path) after the engine answered it. */
  public void holdGetattr(String path) {
    this.holdStat = path;
  }

  /** Waits until the held getattr has its answer; false after {@code seconds} without it. */
  public boolean awaitGetattr(int seconds) throws InterruptedException {
    return statted.await(seconds, TimeUnit.SECONDS);
  }

  /** Lets the held getattr return. */
  public void releaseGetattr() {
    statReleased.countDown();
  }

  @Override
  public io.ossgw.core.vfs.FileAttr getattr(String path) {
    io.ossgw.core.vfs.FileAttr a = fs.getattr(path);
    if (path.equals(holdStat)) {
      holdStat = null; // once
      statted.countDown();
      await(statReleased);
    }
    return a;
  }

  @Override
  public void rename(String from, String to) {
    fs.rename(from, to);
    if (from.equals(hold)) {
      renamed.countDown();
      await(released);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
