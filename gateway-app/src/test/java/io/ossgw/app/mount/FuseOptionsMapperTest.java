package io.ossgw.app.mount;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.config.MountOptions;
import io.ossgw.fuse.FuseOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FuseOptionsMapperTest {
  private static FuseOptions map(String... opts) {
    return FuseOptionsMapper.map("bkt", MountOptions.parse(List.of(opts)), false, false, Duration.ofSeconds(900),
        Duration.ofSeconds(10));
  }

  @Test
  void defaultsFollowTheFuseReference() {
    FuseOptions f = map();
    assertThat(f.entryTimeout()).isEqualTo(60);
    assertThat(f.attrTimeout()).isEqualTo(60);
    assertThat(f.negativeTimeout()).isEqualTo(5);
    assertThat(f.fsname()).isEqualTo("oss:bkt");
    assertThat(f.subtype()).isEqualTo("ossgw");
    assertThat(f.allowOther()).isFalse();
    assertThat(f.readOnly()).isFalse();
    assertThat(f.singleThreaded()).isFalse();
    assertThat(f.maxRead()).isEqualTo(1 << 20); // jnr-fuse caps it at 131072
    assertThat(f.hardRemove()).isFalse(); // libfuse hides unlinked open files (in memory): fstat of them works
    assertThat(f.extraOptions()).isEmpty();
  }

  @Test
  void typedFuseOptionsAreMapped() {
    FuseOptions f = map("allow_other,ro,kernel_cache,direct_io,auto_cache,nonempty,hard_remove",
        "attr_timeout=1.5,entry_timeout=2,negative_timeout=0,max_read=65536,max_write=32768,max_readahead=4096",
        "fsname=mine,subtype=test,use_ino,big_writes,default_permissions");
    assertThat(f.allowOther()).isTrue();
    assertThat(f.readOnly()).isTrue();
    assertThat(f.kernelCache()).isTrue();
    assertThat(f.directIo()).isTrue();
    assertThat(f.autoCache()).isTrue();
    assertThat(f.nonempty()).isTrue();
    assertThat(f.hardRemove()).isTrue();
    assertThat(f.attrTimeout()).isEqualTo(1.5);
    assertThat(f.entryTimeout()).isEqualTo(2);
    assertThat(f.negativeTimeout()).isZero();
    assertThat(f.maxRead()).isEqualTo(65536);
    assertThat(f.maxWrite()).isEqualTo(32768);
    assertThat(f.maxReadahead()).isEqualTo(4096);
    assertThat(f.fsname()).isEqualTo("mine");
    assertThat(f.subtype()).isEqualTo("test");
    assertThat(f.extraOptions()).isEmpty();
  }

  @Test
  void untypedFuseOptionsPassThroughAndEngineOptionsDoNot() {
    FuseOptions f = map("allow_root,noatime,noexec,ac_attr_timeout=3,stat_cache_expire=900,multipart_size=20");
    assertThat(f.extraOptions()).containsExactly("allow_root", "noatime", "noexec", "ac_attr_timeout=3");
  }

  @Test
  void singleThreadAndDebugFlags() {
    FuseOptions f = FuseOptionsMapper.map("bkt", MountOptions.empty(), true, true, null, Duration.ofSeconds(3));
    assertThat(f.singleThreaded()).isTrue();
    assertThat(f.debug()).isTrue();
    assertThat(f.mountTimeout()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void kernelTimeoutsNeverExceedTheEngineCache() {
    FuseOptions f = FuseOptionsMapper.map("bkt", MountOptions.parse(List.of("attr_timeout=120")), false, false,
        Duration.ofSeconds(30), Duration.ofSeconds(10));
    assertThat(f.attrTimeout()).isEqualTo(30);
    assertThat(f.entryTimeout()).isEqualTo(30);
    assertThat(f.negativeTimeout()).isEqualTo(5);
  }

  @Test
  void badValuesNameTheOption() {
    assertThatThrownBy(() -> map("max_read=lots")).hasMessageContaining("'max_read'");
    assertThatThrownBy(() -> map("max_write=0")).hasMessageContaining("'max_write'");
    assertThatThrownBy(() -> map("attr_timeout=soon")).hasMessageContaining("'attr_timeout'");
    assertThatThrownBy(() -> map("max_read=1024")).hasMessageContaining("maxRead");
    assertThatThrownBy(() -> map("fsname=a b")).hasMessageContaining("fsname");
  }
}
