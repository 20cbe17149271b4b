package io.ossgw.app.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.app.config.ClusterConfig;
import io.vertx.mutiny.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up check of the store's own settings, against real Valkey (or Redis) servers this test starts with the
 * settings docs/deploy.md asks for and without them.
 */
class StoreServerCheckTest {
  @TempDir Path dir;

  private static List<String> checked(ValkeyServer v) {
    Vertx vertx = Vertx.vertx();
    ClusterSettings s = new ClusterSettings(v.url(), false, ClusterConfig.Mode.ACTIVE, "t", "n",
        Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofSeconds(5), Optional.empty(), Optional.empty());
    try (RedisStore store = new RedisStore(vertx, s, RedisStore.Recorder.NONE)) {
      return StoreServerCheck.check(store);
    } finally {
      vertx.closeAndAwait();
    }
  }

  @Test
  void aStoreThatPersistsAndNeverEvictsIsFine() throws Exception {
    try (ValkeyServer v = ValkeyServer.start(dir, "--appendonly", "yes", "--maxmemory-policy", "noeviction")) {
      assertThat(checked(v)).isEmpty();
    }
  }

  @Test
  void anEvictingStoreThatPersistsNothingIsNamedTwice() throws Exception {
    try (ValkeyServer v = ValkeyServer.start(dir, "--maxmemory-policy", "allkeys-lru")) { // --save "" --appendonly no
      List<String> w = checked(v);
      assertThat(w).hasSize(2);
      assertThat(w.get(0)).contains("maxmemory-policy is allkeys-lru").contains("noeviction");
      assertThat(w.get(1)).contains("persists nothing").contains("appendonly yes");
    }
  }

  @Test
  void snapshotsAloneCountAsPersistence() {
    assertThat(StoreServerCheck.warnings("noeviction", "no", "3600 1 300 100")).isEmpty();
    assertThat(StoreServerCheck.warnings(null, null, null)).as("CONFIG refused: nothing known, nothing said").isEmpty();
    assertThat(StoreServerCheck.warnings("volatile-lru", "yes", "")).singleElement().asString()
        .contains("volatile-lru");
  }
}
