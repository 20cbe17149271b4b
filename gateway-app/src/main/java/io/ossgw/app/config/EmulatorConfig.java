package io.ossgw.app.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code ossgw.emulator.*}: the embedded OSS emulator {@code serve} starts when {@code ossgw.oss.endpoint} is not set
 * (zero-config mode). Auth is off; every bucket named by a mount is created, plus {@link #bucket()}.
 */
@ConfigMapping(prefix = "ossgw.emulator")
public interface EmulatorConfig {
  /** {@code ossgw.emulator.bucket}: the demo bucket it always has. Default {@code demo}. */
  @WithDefault("demo")
  String bucket();

  /** {@code ossgw.emulator.port}: its port on {@code bind}; 0 = any free port. Default 0. */
  @WithDefault("0")
  int port();

  /** {@code ossgw.emulator.bind}: its listen address. Default {@code 127.0.0.1}. */
  @WithDefault("127.0.0.1")
  String bind();

  /**
   * {@code ossgw.emulator.storage}: {@code dir} keeps objects as files under {@code data-dir} (they survive restarts),
   * {@code memory} keeps them in memory. Default {@code dir}.
   */
  @WithDefault("dir")
  Storage storage();

  /** {@code ossgw.emulator.data-dir}: its data directory. Default {@code <state-dir>/emulator}. */
  Optional<Path> dataDir();

  /** Where the emulator keeps objects. */
  enum Storage { DIR, MEMORY }
}
