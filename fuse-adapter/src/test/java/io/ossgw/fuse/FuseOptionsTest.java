package io.ossgw.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FuseOptionsTest {

  @Test
  void defaultsFollowTheReference() {
    FuseOptions o = FuseOptions.defaults();
    assertThat(o.entryTimeout()).isEqualTo(60);
    assertThat(o.attrTimeout()).isEqualTo(60);
    assertThat(o.negativeTimeout()).isEqualTo(5);
    assertThat(o.defaultPermissions()).isTrue();
    assertThat(o.allowOther()).isFalse();
    assertThat(o.singleThreaded()).isFalse();
    assertThat(o.bigWrites()).isTrue();
    assertThat(o.maxRead()).isEqualTo(1 << 20);
    assertThat(o.maxWrite()).isEqualTo(256 << 10);
    assertThat(o.maxReadahead()).isEqualTo(1 << 20);
    assertThat(o.useIno()).isTrue();
    assertThat(o.hardRemove()).isFalse(); // libfuse's hidden names keep fstat after unlink working
    assertThat(o.kernelCache() || o.autoCache() || o.directIo() || o.readOnly() || o.nonempty()).isFalse();
    assertThat(o.fsname()).isEqualTo("ossgw");
    assertThat(o.subtype()).isEqualTo("ossgw");
    assertThat(o.extraOptions()).isEmpty();
    assertThat(o.mountTimeout()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void builderSetsEveryFieldAndRoundTrips() {
    FuseOptions o = FuseOptions.builder()
        .entryTimeout(1.5).attrTimeout(2).negativeTimeout(0)
        .allowOther(true).defaultPermissions(false).singleThreaded(true)
        .maxRead(65536).maxWrite(1 << 20).maxReadahead(0)
        .kernelCache(true).autoCache(true).directIo(true).readOnly(true)
        .fsname("oss:bucket").subtype("x").useIno(false).nonempty(true).hardRemove(true).debug(true)
        .extraOption("uid=1000", "gid=1000")
        .mountTimeout(Duration.ofSeconds(3)).unmountTimeout(Duration.ofSeconds(4))
        .build();
    assertThat(o.toBuilder().build()).isEqualTo(o);
    assertThat(o.extraOptions()).containsExactly("uid=1000", "gid=1000");
    assertThat(o.maxWrite()).isEqualTo(1 << 20);
    assertThat(o.fsname()).isEqualTo("oss:bucket");
  }

  @Test
  void timeoutsCanBeCappedAtTheEngineCacheTtl() {
    FuseOptions o = FuseOptions.builder().entryTimeout(1000).attrTimeout(100).negativeTimeout(5).build();
    FuseOptions c = o.withTimeoutsCappedAt(900);
    assertThat(c.entryTimeout()).isEqualTo(900);
    assertThat(c.attrTimeout()).isEqualTo(100);
    assertThat(c.negativeTimeout()).isEqualTo(5);
  }

  @Test
  void rejectsBadValues() {
    assertThatThrownBy(() -> FuseOptions.builder().attrTimeout(-1).build()).hasMessageContaining("attrTimeout");
    assertThatThrownBy(() -> FuseOptions.builder().entryTimeout(Double.NaN).build()).hasMessageContaining("entryTimeout");
    assertThatThrownBy(() -> FuseOptions.builder().maxWrite(100).build()).hasMessageContaining("maxWrite");
    assertThatThrownBy(() -> FuseOptions.builder().maxRead(2 << 20).build()).hasMessageContaining("maxRead");
    assertThatThrownBy(() -> FuseOptions.builder().fsname("a,b").build()).hasMessageContaining("fsname");
    assertThatThrownBy(() -> FuseOptions.builder().subtype("a b").build()).hasMessageContaining("subtype");
    assertThatThrownBy(() -> FuseOptions.builder().extraOption("-s").build()).hasMessageContaining("-o option");
    assertThatThrownBy(() -> FuseOptions.builder().mountTimeout(Duration.ZERO).build())
        .isInstanceOf(IllegalArgumentException.class);
  }
}
