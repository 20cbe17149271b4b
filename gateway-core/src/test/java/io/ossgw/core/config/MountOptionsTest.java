package io.ossgw.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MountOptionsTest {
  private final Credentials creds = new Credentials("ak", "sk");

  @Test
  void parsesOssfsStyleOptionsWithDefaults() {
    MountOptions o = MountOptions.parse(List.of("url=http://127.0.0.1:9000/,sigv1", "stat_cache_expire=60,allow_other"));
    EngineConfig c = EngineConfig.fromOptions("b", "/sub/dir", o, creds, 1, 2, null);
    assertThat(c.endpoint()).isEqualTo("http://127.0.0.1:9000");
    assertThat(c.signatureV4()).isFalse();
    assertThat(c.prefix()).isEqualTo("sub/dir/");
    assertThat(c.statCacheExpire()).isEqualTo(Duration.ofSeconds(60));
    assertThat(c.maxStatCacheSize()).isEqualTo(100_000);
    assertThat(c.multipartSize()).isEqualTo(10L << 20);
    assertThat(c.parallelCount()).isEqualTo(5);
    assertThat(c.negativeCache()).isTrue();
    assertThat(o.ofKind(OptionKind.FUSE)).containsExactly("allow_other");
  }

  @Test
  void defaultsMatchOssfs() {
    EngineConfig c = EngineConfig.fromOptions("b", "", MountOptions.empty(), creds, 0, 0, null);
    assertThat(c.endpoint()).isEqualTo("https://oss-cn-hangzhou.aliyuncs.com");
    assertThat(c.signatureV4()).isTrue();
    assertThat(c.statCacheExpire()).isEqualTo(Duration.ofSeconds(900));
    assertThat(c.prefix()).isEmpty();
    assertThat(c.chunkSize()).isEqualTo(4L << 20);
    assertThat(c.prefetchChunks()).as("ossgw's own: ossfs has 32, docs/benchmarks.md \"Read path\"").isEqualTo(8);
    assertThat(c.prefetchLimit()).isEqualTo(1024L << 20);
    assertThat(c.singlepartCopyLimit()).isEqualTo(512L << 20);
    assertThat(c.spoolDir()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
  }

  @Test
  void neverExpireAndSlidingExpiry() {
    assertThat(EngineConfig.fromOptions("b", "", MountOptions.parse(List.of("stat_cache_expire=-1")), creds, 0, 0, null)
        .statCacheExpire()).isNull();
    EngineConfig s = EngineConfig.fromOptions("b", "", MountOptions.parse(List.of("stat_cache_interval_expire=30")), creds, 0, 0, null);
    assertThat(s.statCacheSliding()).isTrue();
    assertThat(s.statCacheExpire()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void refusesUnknownAndUnimplementedOptionsByName() {
    assertThatThrownBy(() -> MountOptions.parse(List.of("no_such_thing")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no_such_thing");
    assertThatThrownBy(() -> MountOptions.parse(List.of("use_xattr")))
        .hasMessageContaining("use_xattr").hasMessageContaining("not implemented");
    assertThatThrownBy(() -> MountOptions.parse(List.of("allow_other=1"))).hasMessageContaining("takes no value");
    assertThatThrownBy(() -> MountOptions.parse(List.of("multipart_size"))).hasMessageContaining("needs a value");
  }

  @Test
  void checksLimits() {
    assertThatThrownBy(() -> EngineConfig.fromOptions("b", "", MountOptions.parse(List.of("multipart_size=1")), creds, 0, 0, null))
        .hasMessageContaining("multipart_size");
    assertThatThrownBy(() -> EngineConfig.fromOptions("b", "", MountOptions.parse(List.of("direct_read_prefetch_limit=64")), creds, 0, 0, null))
        .hasMessageContaining("direct_read_prefetch_limit");
    assertThatThrownBy(() -> EngineConfig.fromOptions("b", "", MountOptions.parse(List.of("parallel_count=x")), creds, 0, 0, null))
        .hasMessageContaining("whole number");
  }

  @Test
  void mapFormTreatsFlagsAsBooleans() {
    MountOptions o = MountOptions.of(Map.of("readdir_optimize", "true", "stat_cache_expire", "5", "sigv1", "false"));
    assertThat(o.has("readdir_optimize")).isTrue();
    assertThat(o.has("sigv1")).isFalse();
    assertThat(o.getLong("stat_cache_expire", 0)).isEqualTo(5);
  }

  @Test
  void everyCatalogEntryHasHelp() {
    assertThat(OptionCatalog.all()).allSatisfy(s -> assertThat(s.help()).isNotBlank());
  }
}
