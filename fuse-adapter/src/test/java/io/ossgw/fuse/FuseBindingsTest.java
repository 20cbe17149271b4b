package io.ossgw.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The default binding: libfuse 3's when it loads, else libfuse 2's, else an error naming both. */
class FuseBindingsTest {
  /** A binding whose library loads or not, as told. */
  private record Fake(String name, boolean loads) implements FuseBinding {
    @Override
    public void load() {
      if (!loads) {
        throw new MountException(name + " is not installed");
      }
    }

    @Override
    public List<String> arguments(FuseOptions options) {
      return List.of();
    }

    @Override
    public int run(FuseFilesystem fs, Path mountpoint, FuseOptions options) {
      return 1;
    }
  }

  @Test
  void thePreferredBindingWhenItsLibraryLoads() {
    assertThat(FuseBindings.firstLoadable(() -> new Fake("libfuse3", true), () -> new Fake("libfuse2", true)).name())
        .isEqualTo("libfuse3");
  }

  @Test
  void theFallbackWhenOnlyItsLibraryLoads() {
    assertThat(FuseBindings.firstLoadable(() -> new Fake("libfuse3", false), () -> new Fake("libfuse2", true)).name())
        .isEqualTo("libfuse2");
  }

  @Test
  void bothReasonsWhenNeitherLoads() {
    assertThatThrownBy(() -> FuseBindings.firstLoadable(() -> new Fake("libfuse3", false),
        () -> new Fake("libfuse2", false)))
        .isInstanceOf(MountException.class)
        .hasMessageContaining("libfuse3 is not installed").hasMessageContaining("libfuse2 is not installed");
  }

  @Test
  void withLibfuse3InstalledTheDefaultIsJfuse() {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        java.nio.file.Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libfuse3.so.3")), "libfuse3 not installed");
    String before = System.getProperty(FuseBindings.PROPERTY);
    System.clearProperty(FuseBindings.PROPERTY);
    try {
      assertThat(FuseBindings.configured().name()).contains("libfuse3");
    } finally {
      if (before != null) {
        System.setProperty(FuseBindings.PROPERTY, before);
      }
    }
  }
}
