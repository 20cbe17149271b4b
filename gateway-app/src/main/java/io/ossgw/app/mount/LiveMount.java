package io.ossgw.app.mount;

import io.ossgw.core.engine.Engine;
import org.jboss.logging.Logger;

/**
 * An engine and its FUSE mount, started together and closed in the right order (unmount first, so no FUSE request
 * reaches a closed engine; then the engine, which flushes open files).
 */
public final class LiveMount implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(LiveMount.class);

  private final MountPlan plan;
  private final Engine engine;
  private final MountHandle handle;

  private LiveMount(MountPlan plan, Engine engine, MountHandle handle) {
    this.plan = plan;
    this.engine = engine;
    this.handle = handle;
  }

  /**
   * Starts the engine (checks the bucket) and mounts it. On failure nothing is left mounted or running.
   *
   * @throws io.ossgw.core.engine.EngineException bucket missing, access denied, endpoint unreachable
   * @throws io.ossgw.fuse.MountException the kernel mount failed
   */
  public static LiveMount start(MountPlan plan, Mounter mounter) {
    Engine engine = Engine.start(plan.engine());
    try {
      MountHandle h = mounter.mount(engine.fileSystem(), plan.mountpoint(), plan.fuse());
      LOG.infof("mounted %s at %s (endpoint %s)", plan.source(), plan.mountpoint(), plan.engine().endpoint());
      return new LiveMount(plan, engine, h);
    } catch (RuntimeException e) {
      engine.close();
      throw e;
    }
  }

  public MountPlan plan() {
    return plan;
  }

  public Engine engine() {
    return engine;
  }

  public MountHandle handle() {
    return handle;
  }

  /** Unmounts, then closes the engine; idempotent. */
  @Override
  public void close() {
    try {
      handle.close();
    } catch (RuntimeException e) {
      LOG.warnf("unmounting %s failed: %s", plan.mountpoint(), e.getMessage());
    } finally {
      engine.close();
      LOG.infof("unmounted %s", plan.mountpoint());
    }
  }
}
