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
}
