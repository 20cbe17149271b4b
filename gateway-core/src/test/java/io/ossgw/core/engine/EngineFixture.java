package io.ossgw.core.engine;

import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The set-up the engine tests share: per test, a {@link TestGateway} (the OSS emulator and a raw SDK client) with a
 * state directory of its own and one engine mounted on the bucket root as {@link #fs}; everything is closed after
 * the test. A test that restarts the engine calls {@code gw.closeEngines()} and assigns {@code fs = gw.mount()}.
 */
abstract class EngineFixture {
  @TempDir Path state;
  TestGateway gw;
  VirtualFileSystem fs;

  @BeforeEach
  void start() {
    gw = new TestGateway(state);
    fs = gw.mount();
  }

  @AfterEach
  void stop() {
    gw.close();
  }
}
