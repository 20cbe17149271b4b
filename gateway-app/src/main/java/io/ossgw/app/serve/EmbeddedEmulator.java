package io.ossgw.app.serve;

import io.ossgw.emulator.OssEmulator;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The in-project OSS emulator run inside the gateway process: the zero-config backend of {@code serve} (no
 * {@code ossgw.oss.endpoint}) and of {@code demo}. Binds a loopback port of its own (ephemeral by default).
 */
public final class EmbeddedEmulator implements AutoCloseable {
  private final OssEmulator emulator;

  private EmbeddedEmulator(OssEmulator emulator) {
    this.emulator = emulator;
  }

  /**
   * Starts an emulator.
   *
   * @param bind listen address
   * @param port port, 0 for any free one
   * @param dataDir directory for objects, or null to keep them in memory
   * @param buckets buckets to create (existing ones in dataDir are kept)
   * @param accessKey the AccessKey ID it accepts when auth is on, or null for auth off
   * @param secretKey the secret it accepts when auth is on, or null
   */
  public static EmbeddedEmulator start(String bind, int port, Path dataDir, Collection<String> buckets,
      String accessKey, String secretKey) {
    Set<String> names = new LinkedHashSet<>(buckets);
    var b = OssEmulator.builder().bind(bind).port(port).dataDir(dataDir).authEnabled(accessKey != null);
    for (String name : names) {
      b.bucket(name);
    }
    if (accessKey != null) {
      b.credentials(accessKey, secretKey);
    }
    OssEmulator e = b.build();
    e.start();
    return new EmbeddedEmulator(e);
  }

  /** The endpoint URL, e.g. {@code http://127.0.0.1:41234}. */
  public String endpoint() {
    return String.valueOf(emulator.endpoint());
  }

  /** The emulator, for its request counters. */
  public OssEmulator emulator() {
    return emulator;
  }

  @Override
  public void close() {
    emulator.close();
  }
}
