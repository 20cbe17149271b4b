package io.ossgw.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A mistyped -o option names the nearest known options. */
class OptionSuggestionTest {
  @Test
  void aTruncatedNameSuggestsTheFullOne() {
    assertThatThrownBy(() -> MountOptions.parse(List.of("url=http://127.0.0.1:1,stat_cache_expir=60")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown option 'stat_cache_expir'; did you mean 'stat_cache_expire'? "
            + "(see 'ossgw mount --list-options')");
  }

  @Test
  void swappedLettersAndOneTypoAreNear() {
    assertThat(OptionCatalog.nearest("alow_other")).containsExactly("allow_other");
    assertThat(OptionCatalog.nearest("multipart_szie")).containsExactly("multipart_size");
    assertThat(OptionCatalog.distance("ab", "ba")).isEqualTo(1);
    assertThat(OptionCatalog.distance("kitten", "sitting")).isEqualTo(3);
  }

  @Test
  void aNameFarFromEveryOptionGetsNoGuess() {
    assertThat(OptionCatalog.nearest("bogus_option")).isEmpty();
    assertThatThrownBy(() -> MountOptions.parse(List.of("bogus_option=1")))
        .hasMessage("unknown option 'bogus_option' (see 'ossgw mount --list-options')");
  }

  @Test
  void atMostThreeEquallyNearNamesInDocumentationOrder() {
    List<String> near = OptionCatalog.nearest("uix");
    assertThat(near).hasSizeLessThanOrEqualTo(3).isNotEmpty().allMatch(n -> OptionCatalog.distance("uix", n) == 1);
  }
}
