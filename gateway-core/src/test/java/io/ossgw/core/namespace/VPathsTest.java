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

  /** OSS keys are at most 1,023 bytes: a file may use all of them, a directory's marker needs one for its slash. */
  @Test
  void fileKeysMayBe1023BytesDirectoryMarkersIncludeTheirSlash() {
    KeyMapper k = new KeyMapper("p/");
    String dirs = ("d".repeat(250) + "/").repeat(4); // 1,004 bytes
    String exact = "/" + dirs + "f".repeat(1023 - 2 - dirs.length()); // "p/" + path = 1,023 bytes
    assertThat(k.fileKey(exact)).hasSize(1023);
    assertThatThrownBy(() -> k.fileKey(exact + "x"))
        .isInstanceOfSatisfying(FsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENAMETOOLONG));
    assertThatThrownBy(() -> k.dirKey(exact))
        .isInstanceOfSatisfying(FsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENAMETOOLONG));
    assertThat(k.dirKeyOrNull(exact)).isNull();
    String dir = exact.substring(0, exact.length() - 1); // marker key "p/..../" = 1,023 bytes
    assertThat(k.dirKey(dir)).hasSize(1023).endsWith("/");
    String multiByte = "/" + dirs + "é".repeat((1023 - 2 - dirs.length()) / 2) + "f"; // 2-byte chars to the limit
    assertThat(k.fileKey(multiByte).getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSize(1023);
  }
}
