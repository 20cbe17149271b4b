package io.ossgw.core.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The set-up the engine tests share: per test, a {@link TestGateway} (the OSS emulator and a raw SDK client) with a
 * state directory of its own, closed after the test with every engine it mounted. Tests that mount engines with their
 * own options extend this; {@link EngineFixture} adds one engine with the defaults.
 */
abstract class GatewayFixture {
  @TempDir Path state;
  TestGateway gw;

  @BeforeEach
  void startGateway() {
    gw = new TestGateway(state);
  }

  @AfterEach
  void stopGateway() {
    gw.close();
  }
}
