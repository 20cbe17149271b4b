package io.ossgw.fuse.jfuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code -Dio.ossgw.fuse.readdirplus_keep}: a count of names, 0 for off, anything else refused by name. */
class ListedNamesKeepTest {
  @Test
  void unsetIsTheDefaultAndACountIsTaken() {
    assertThat(ListedNames.keep(null)).isEqualTo(ListedNames.DEFAULT_KEEP);
    assertThat(ListedNames.keep(" ")).isEqualTo(ListedNames.DEFAULT_KEEP);
    assertThat(ListedNames.keep(" 1000 ")).isEqualTo(1000);
    assertThat(ListedNames.keep("0")).isZero();
  }

  @Test
  void aNegativeOrNonNumberIsRefusedNamingTheProperty() {
    for (String bad : new String[] {"-1", "50k", "1e6"}) {
      assertThatThrownBy(() -> ListedNames.keep(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("io.ossgw.fuse.readdirplus_keep").hasMessageContaining(bad);
    }
  }
}
