package io.ossgw.fuse.jfuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * {@code -Dio.ossgw.fuse.readdirplus_keep} (a count of names, 0 for off) and {@code
 * -Dio.ossgw.fuse.readdirplus_invalidators} (a count of threads, at least 1): anything else refused by name.
 */
class ListedNamesKeepTest {
  private static int keep(String v) {
    return ListedNames.count(ListedNames.KEEP_PROPERTY, v, ListedNames.DEFAULT_KEEP, 0);
  }

  private static int invalidators(String v) {
    return ListedNames.count(ListedNames.INVALIDATORS_PROPERTY, v, ListedNames.DEFAULT_INVALIDATORS, 1);
  }

  @Test
  void unsetIsTheDefaultAndACountIsTaken() {
    assertThat(keep(null)).isEqualTo(ListedNames.DEFAULT_KEEP);
    assertThat(keep(" ")).isEqualTo(ListedNames.DEFAULT_KEEP);
    assertThat(keep(" 1000 ")).isEqualTo(1000);
    assertThat(keep("0")).isZero();
    assertThat(invalidators(null)).isEqualTo(ListedNames.DEFAULT_INVALIDATORS);
    assertThat(invalidators("1")).isEqualTo(1);
  }

  @Test
  void aNegativeOrNonNumberIsRefusedNamingTheProperty() {
    for (String bad : new String[] {"-1", "50k", "1e6"}) {
      assertThatThrownBy(() -> keep(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("io.ossgw.fuse.readdirplus_keep").hasMessageContaining(bad);
    }
    for (String bad : new String[] {"0", "-2", "x"}) {
      assertThatThrownBy(() -> invalidators(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("io.ossgw.fuse.readdirplus_invalidators").hasMessageContaining(bad);
    }
  }
}
