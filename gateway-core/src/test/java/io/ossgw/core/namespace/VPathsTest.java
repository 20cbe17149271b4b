package io.ossgw.core.namespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import org.junit.jupiter.api.Test;

class VPathsTest {
  @Test
  void parentNameChild() {
    assertThat(VPaths.parent("/a/b")).isEqualTo("/a");
    assertThat(VPaths.parent("/a")).isEqualTo("/");
    assertThat(VPaths.name("/a/b")).isEqualTo("b");
    assertThat(VPaths.child("/", "x")).isEqualTo("/x");
    assertThat(VPaths.child("/a", "x")).isEqualTo("/a/x");
    assertThat(VPaths.isSameOrBelow("/a/b", "/a")).isTrue();
    assertThat(VPaths.isSameOrBelow("/ab", "/a")).isFalse();
  }

  @Test
  void componentsOver255BytesAreTooLong() {
    String ok = "é".repeat(127); // 254 bytes
    assertThat(VPaths.check("/" + ok)).isEqualTo("/" + ok);
    assertThatThrownBy(() -> VPaths.check("/d/" + "é".repeat(128)))
        .isInstanceOfSatisfying(FsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENAMETOOLONG));
    assertThatThrownBy(() -> VPaths.check("/a//b"))
        .isInstanceOfSatisfying(FsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL));
  }

  @Test
  void keysUnderAPrefix() {
    KeyMapper k = new KeyMapper("data/x/");
    assertThat(k.fileKey("/a b/c+%.txt")).isEqualTo("data/x/a b/c+%.txt");
    assertThat(k.dirKey("/a")).isEqualTo("data/x/a/");
    assertThat(k.dirKey("/")).isEqualTo("data/x/");
    assertThat(k.pathOf("data/x/a/")).isEqualTo("/a");
    assertThat(k.pathOf("other")).isNull();
    String deep = "/" + ("d".repeat(200) + "/").repeat(6) + "f";
    assertThatThrownBy(() -> k.fileKey(deep))
        .isInstanceOfSatisfying(FsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENAMETOOLONG));
  }
}
