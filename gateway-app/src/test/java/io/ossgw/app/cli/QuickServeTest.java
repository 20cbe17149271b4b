package io.ossgw.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code ossgw serve BUCKET[:/PREFIX] --nfs ... -o ...} becomes the properties a config file would hold. */
class QuickServeTest {
  @Test
  void bucketWithPrefixNfsAndOptions() {
    var props = QuickServe.properties(List.of("data:/a/b", "--nfs", "--nfs-port", "12049", "--nfs-bind=127.0.0.1",
        "-o", "url=http://127.0.0.1:9000,passwd_file=/etc/pw,readdir_optimize", "-ostat_cache_expire=60"));
    assertThat(props).containsEntry("ossgw.exports.data.bucket", "data")
        .containsEntry("ossgw.exports.data.prefix", "/a/b/")
        .containsEntry("ossgw.nfs.port", "12049")
        .containsEntry("ossgw.nfs.bind", "127.0.0.1")
        .containsEntry("ossgw.oss.endpoint", "http://127.0.0.1:9000")
        .containsEntry("ossgw.options.passwd_file", "/etc/pw")
        .containsEntry("ossgw.options.readdir_optimize", "true")
        .containsEntry("ossgw.options.stat_cache_expire", "60")
        .doesNotContainKey("ossgw.options.url");
  }

  @Test
  void withoutBucketNothingChanges() {
    assertThat(QuickServe.properties(List.of("--config", "/etc/ossgw.properties"))).isEmpty();
  }

  @Test
  void mistakesAreNamed() {
    assertThatThrownBy(() -> QuickServe.properties(List.of("bkt")))
        .hasMessageContaining("--nfs").hasMessageContaining("ossgw mount bkt MOUNTPOINT");
    assertThatThrownBy(() -> QuickServe.properties(List.of("--nfs")))
        .hasMessageContaining("need BUCKET[:/PREFIX]");
    assertThatThrownBy(() -> QuickServe.properties(List.of("Bad_Bucket", "--nfs")))
        .hasMessageContaining("invalid bucket name");
    assertThatThrownBy(() -> QuickServe.properties(List.of("bkt", "--nfs", "-o", "use_wtf8")))
        .hasMessageContaining("use_wtf8");
    assertThatThrownBy(() -> QuickServe.properties(List.of("bkt", "--nfs", "--nfs-port")))
        .hasMessageContaining("--nfs-port needs a value");
  }

  /** Issue 9 item 9: the quick form listens on this host only unless told otherwise; --nfs-clients narrows the export. */
  @Test
  void quickFormListensOnLoopbackUnlessToldOtherwise() {
    assertThat(QuickServe.defaults(List.of("bkt", "--nfs"))).containsEntry("ossgw.nfs.bind", "127.0.0.1")
        .containsEntry("quarkus.http.host", "127.0.0.1");
    assertThat(QuickServe.properties(List.of("bkt", "--nfs"))).doesNotContainKeys("ossgw.nfs.bind",
        "quarkus.http.host", "ossgw.exports.bkt.clients");
    var open = List.of("bkt", "--nfs", "--nfs-bind", "0.0.0.0", "--nfs-clients", "10.0.0.0/8,192.168.1.7",
        "--http-bind=0.0.0.0");
    assertThat(QuickServe.defaults(open)).isEmpty();
    assertThat(QuickServe.properties(open)).containsEntry("ossgw.nfs.bind", "0.0.0.0")
        .containsEntry("ossgw.exports.bkt.clients", "10.0.0.0/8,192.168.1.7")
        .containsEntry("quarkus.http.host", "0.0.0.0");
    // the config-file form keeps its defaults; --http-bind works there too
    assertThat(QuickServe.defaults(List.of("--config", "/etc/ossgw.properties"))).isEmpty();
    assertThat(QuickServe.properties(List.of("--config", "/etc/ossgw.properties", "--http-bind", "10.1.2.3")))
        .containsExactly(java.util.Map.entry("quarkus.http.host", "10.1.2.3"));
  }

  @Test
  void badClientNetworksAndNfsFlagsWithoutNfsAreNamed() {
    assertThatThrownBy(() -> QuickServe.properties(List.of("bkt", "--nfs", "--nfs-clients", "10.0.0.0/8,example.com")))
        .hasMessageContaining("example.com");
    assertThatThrownBy(() -> QuickServe.properties(List.of("bkt", "--smb", "--nfs-clients", "10.0.0.0/8")))
        .hasMessageContaining("go with --nfs");
  }
}
