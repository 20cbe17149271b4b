package io.ossgw.app.mount;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MountSourceTest {
  @Test
  void parsesTheOssfsForms() {
    assertThat(MountSource.parse("bkt")).isEqualTo(new MountSource("bkt", ""));
    assertThat(MountSource.parse("bkt:/")).isEqualTo(new MountSource("bkt", ""));
    assertThat(MountSource.parse("bkt:/a/b")).isEqualTo(new MountSource("bkt", "a/b/"));
    assertThat(MountSource.parse("bkt:a/b/")).isEqualTo(new MountSource("bkt", "a/b/"));
    assertThat(MountSource.parse("my-bucket-1:/x").toString()).isEqualTo("my-bucket-1:/x");
  }

  @Test
  void refusesInvalidBucketNames() {
    assertThatThrownBy(() -> MountSource.parse("My_Bucket")).hasMessageContaining("invalid bucket name 'My_Bucket'");
    assertThatThrownBy(() -> MountSource.parse("ab")).hasMessageContaining("3-63");
    assertThatThrownBy(() -> MountSource.parse(":/x")).hasMessageContaining("invalid bucket name");
    assertThatThrownBy(() -> MountSource.parse("")).hasMessageContaining("missing");
  }
}
