package io.ossgw.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The invalidation message: its wire text, and how each mount maps a key to its own path. */
class InvalidationTest {
  @Test
  void encodesAndDecodesKeysWithNewlinesAndUnicode() {
    Invalidation inv = new Invalidation("node-1", "bkt", "dir/line\nbreak/名前", true);
    assertThat(inv.encode()).isEqualTo("1\nnode-1\nT\nbkt\ndir/line\nbreak/名前");
    assertThat(Invalidation.decode(inv.encode())).isEqualTo(inv);
    Invalidation root = new Invalidation("n", "b", "", false);
    assertThat(Invalidation.decode(root.encode())).isEqualTo(root);
  }

  @Test
  void foreignMessagesAreRefusedWithTheirText() {
    assertThatThrownBy(() -> Invalidation.decode("hello")).hasMessage("not an ossgw invalidation: hello");
    assertThatThrownBy(() -> Invalidation.decode("2\nn\nT\nb\nk")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Invalidation.decode("1\nn\nX\nb\nk")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Invalidation("a\nb", "b", "k", false)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void eachMountFindsItsOwnPath() {
    Invalidation inv = new Invalidation("n", "b", "team/docs/a.txt", false);
    assertThat(inv.pathIn("b", "")).isEqualTo("/team/docs/a.txt");
    assertThat(inv.pathIn("b", "team/")).isEqualTo("/docs/a.txt");
    assertThat(inv.pathIn("b", "team/docs/")).isEqualTo("/a.txt");
    assertThat(inv.pathIn("b", "other/")).isNull();
    assertThat(inv.pathIn("b", "tea/")).isNull();
    assertThat(inv.pathIn("c", "")).isNull();
    assertThat(new Invalidation("n", "b", "team", true).pathIn("b", "team/")).isEqualTo("/");
    assertThat(new Invalidation("n", "b", "", true).pathIn("b", "")).isEqualTo("/");
  }

  @Test
  void aTreeAboveAMountCoversAllOfIt() {
    assertThat(new Invalidation("n", "b", "team", true).covers("b", "team/docs/")).isTrue();
    assertThat(new Invalidation("n", "b", "", true).covers("b", "team/")).isTrue();
    assertThat(new Invalidation("n", "b", "team", false).covers("b", "team/docs/")).isFalse();
    assertThat(new Invalidation("n", "b", "tea", true).covers("b", "team/docs/")).isFalse();
    assertThat(new Invalidation("n", "b", "team", true).covers("b", "")).isFalse();
  }
}
