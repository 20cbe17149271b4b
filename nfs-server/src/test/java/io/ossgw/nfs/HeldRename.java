package io.ossgw.nfs;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.ForwardingFileSystem;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The engine, with one rename held open: once the engine has renamed {@link #hold} the call waits (up to 30 seconds)
 * until the test {@link #release}s it, so a request can arrive while a RENAME is half done (the object moved, the
 * handle table and the open files not yet). It can also hold one getattr after it answered ({@link #holdGetattr}),
 * so a request that has checked its object can be kept there while a whole RENAME runs. Every other call goes
 * straight to the engine.
 */
public final class HeldRename extends ForwardingFileSystem {
  private final Gate rename = new Gate();
  private final Gate getattr = new Gate();

  public HeldRename(VirtualFileSystem engine) {
    super(engine);
  }

  /** Holds the next rename of {@code from} (an engine path, "/dir/name"). */
  public void hold(String from) {
    rename.arm(from);
  }

  /** Waits until the engine has done the held rename; false after {@code seconds} without it. */
  public boolean awaitRenamed(int seconds) throws InterruptedException {
    return rename.awaitReached(seconds);
  }

  /** Lets the held rename return. */
  public void release() {
    rename.release();
  }

  /** Holds the next getattr of {@code path} (an engine path) after the engine answered it. */
  public void holdGetattr(String path) {
    getattr.arm(path);
  }

  /** Waits until the held getattr has its answer; false after {@code seconds} without it. */
  public boolean awaitGetattr(int seconds) throws InterruptedException {
    return getattr.awaitReached(seconds);
  }

  /** Lets the held getattr return. */
  public void releaseGetattr() {
    getattr.release();
  }

  @Override
  public FileAttr getattr(String path) {
    FileAttr a = fs.getattr(path);
    getattr.pass(path);
    return a;
  }

  @Override
  public void rename(String from, String to) {
    fs.rename(from, to);
    rename.pass(from);
  }

  /** One call of one path held after the engine did it, once, until the test releases it (up to 30 seconds). */
  private static final class Gate {
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private final AtomicReference<String> armed = new AtomicReference<>();

    void arm(String path) {
      armed.set(path);
    }

    boolean awaitReached(int seconds) throws InterruptedException {
      return reached.await(seconds, TimeUnit.SECONDS);
    }

    void release() {
      released.countDown();
    }

    /** Holds the calling thread if {@code path} is the armed one (the first such call only). */
    void pass(String path) {
      String a = armed.get();
      if (a == null || !a.equals(path) || !armed.compareAndSet(a, null)) {
        return;
      }
      reached.countDown();
      try {
        released.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
