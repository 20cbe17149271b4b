package io.ossgw.core.engine;

import io.ossgw.core.vfs.VirtualFileSystem;
import org.junit.jupiter.api.BeforeEach;

/**
 * {@link GatewayFixture} with one engine mounted on the bucket root as {@link #fs}, per test (JUnit runs the gateway's
 * set-up first). A test that restarts the engine calls {@code gw.closeEngines()} and assigns {@code fs = gw.mount()}.
 */
abstract class EngineFixture extends GatewayFixture {
  VirtualFileSystem fs;

  @BeforeEach
  void mountEngine() {
    fs = gw.mount();
  }
}
