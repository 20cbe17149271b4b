package io.ossgw.fuse.jnr;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.fuse.FuseOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

class JnrFuseBindingTest {
  private final JnrFuseBinding binding = new JnrFuseBinding();

  @Test
  void defaultArgumentsAreTheReferenceOptionSet() {
    List<String> args = binding.arguments(FuseOptions.builder().fsname("oss:b").build());
    assertThat(args).containsExactly("-o", "big_writes,max_write=131072,max_read=131072,max_readahead=1048576,"
        + "entry_timeout=60,attr_timeout=60,negative_timeout=5,use_ino,default_permissions,"
        + "fsname=oss:b,subtype=ossgw");
  }

  @Test
  void flagsRequestSizeCapAndPassThrough() {
    List<String> args = binding.arguments(FuseOptions.builder()
        .singleThreaded(true).debug(true).maxWrite(1 << 20).maxRead(1 << 20).entryTimeout(0.25).attrTimeout(0)
        .negativeTimeout(1e-4).allowOther(true).kernelCache(true).autoCache(true).directIo(true).readOnly(true)
        .nonempty(true).useIno(false).defaultPermissions(false).hardRemove(true)
        .extraOption("uid=1000").extraOption("noatime").build());
    assertThat(args.subList(0, 3)).containsExactly("-s", "-d", "-o");
    assertThat(args.get(3).split(",")).containsExactly("big_writes", "max_write=131072", "max_read=131072",
        "max_readahead=1048576", "entry_timeout=0.25", "attr_timeout=0", "negative_timeout=0.0001",
        "allow_other", "kernel_cache", "auto_cache", "direct_io", "ro", "nonempty", "hard_remove", "fsname=ossgw", "subtype=ossgw");
    assertThat(args.subList(4, args.size())).containsExactly("-o", "uid=1000", "-o", "noatime");
  }

  @Test
  void loadsLibfuse2() {
    binding.load(); // libfuse2 is a test prerequisite on this machine kind
    assertThat(binding.name()).contains("libfuse2");
  }
}
