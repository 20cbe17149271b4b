package io.ossgw.fuse.jfuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.fuse.FuseBindings;
import io.ossgw.fuse.FuseOptions;
import io.ossgw.fuse.MountException;
import io.ossgw.fuse.jnr.JnrFuseBinding;
import java.util.List;
import org.junit.jupiter.api.Test;

class JfuseBindingTest {
  private final JfuseBinding binding = new JfuseBinding();

  @Test
  void defaultArgumentsAreTheLibfuse3Equivalent() {
    // No big_writes/max_write/max_readahead/use_ino/hard_remove/direct_io/nonempty: not -o options in libfuse 3
    // (the ones that matter are set in init).
    List<String> args = binding.arguments(FuseOptions.builder().fsname("oss:b").build());
    assertThat(args).containsExactly("-o", "max_read=1048576,entry_timeout=60,attr_timeout=60,negative_timeout=5,"
        + "default_permissions,fsname=oss:b,subtype=ossgw");
  }

  @Test
  void flagsAndPassThrough() {
    List<String> args = binding.arguments(FuseOptions.builder()
        .singleThreaded(true).debug(true).maxRead(1 << 20).entryTimeout(0.25).attrTimeout(0).negativeTimeout(1e-4)
        .allowOther(true).kernelCache(true).autoCache(true).directIo(true).readOnly(true).nonempty(true)
        .defaultPermissions(false).extraOption("uid=1000").build());
    assertThat(args.subList(0, 3)).containsExactly("-s", "-d", "-o");
    assertThat(args.get(3).split(",")).containsExactly("max_read=1048576", "entry_timeout=0.25", "attr_timeout=0",
        "negative_timeout=0.0001", "allow_other", "kernel_cache", "auto_cache", "ro", "fsname=ossgw",
        "subtype=ossgw");
    assertThat(args.subList(4, args.size())).containsExactly("-o", "uid=1000");
  }

  @Test
  void aMissingLibfuse3NamesThePackage() {
    assertThatThrownBy(() -> JfuseNative.load(List.of("/nonexistent/libfuse3.so.3")))
        .isInstanceOf(MountException.class)
        .hasMessageContaining("apt-get install libfuse3-3");
  }

  @Test
  void bindingsAreChosenByName() {
    assertThat(FuseBindings.byName("jfuse")).isInstanceOf(JfuseBinding.class);
    assertThat(FuseBindings.byName(" JNR ")).isInstanceOf(JnrFuseBinding.class);
    assertThatThrownBy(() -> FuseBindings.byName("fuse-t")).isInstanceOf(MountException.class)
        .hasMessageContaining("jnr").hasMessageContaining("jfuse");
  }
}
