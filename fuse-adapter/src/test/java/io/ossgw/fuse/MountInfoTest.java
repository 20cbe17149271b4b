package io.ossgw.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class MountInfoTest {
  private static final String SAMPLE = String.join("\n",
      "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw",
      "36 22 0:31 / /tmp/with\\040space rw,nosuid,nodev,relatime shared:20 master:3 - fuse.ossgw oss:b rw,user_id=0",
      "37 22 0:32 / /tmp/back\\134slash\\011tab rw - fuse fusectl rw",
      "garbage line",
      "38 36 0:33 /sub /tmp/with\\040space rw,relatime - tmpfs tmp\\040fs rw,size=10k",
      "");

  @Test
  void parsesFieldsOptionalFieldsAndEscapes() {
    List<MountInfo.Entry> e = MountInfo.parse(SAMPLE);
    assertThat(e).hasSize(4);
    MountInfo.Entry fuse = e.get(1);
    assertThat(fuse.mountId()).isEqualTo(36);
    assertThat(fuse.parentId()).isEqualTo(22);
    assertThat(fuse.device()).isEqualTo("0:31");
    assertThat(fuse.mountPoint()).isEqualTo("/tmp/with space");
    assertThat(fuse.fsType()).isEqualTo("fuse.ossgw");
    assertThat(fuse.source()).isEqualTo("oss:b");
    assertThat(fuse.superOptions()).isEqualTo("rw,user_id=0");
    assertThat(fuse.isFuse()).isTrue();
    assertThat(e.get(2).mountPoint()).isEqualTo("/tmp/back\\slash\ttab");
    assertThat(e.get(3).source()).isEqualTo("tmp fs");
    assertThat(e.get(3).root()).isEqualTo("/sub");
    assertThat(e.get(0).isFuse()).isFalse();
  }

  @Test
  void findReturnsTheTopmostMount() {
    List<MountInfo.Entry> e = MountInfo.parse(SAMPLE);
    assertThat(MountInfo.find(e, "/tmp/with space").orElseThrow().mountId()).isEqualTo(38);
    assertThat(MountInfo.find(e, "/tmp/with").isEmpty()).isTrue();
    assertThat(MountInfo.byId(e, 37).orElseThrow().fsType()).isEqualTo("fuse");
  }

  @Test
  void utf8NamesSurviveTheByteWiseEscaping() {
    String path = "/mnt/ünï cödé\\文件\n";
    String escaped = MountInfo.escape(path);
    assertThat(escaped).contains("\\040").contains("\\134").contains("\\012").doesNotContain(" ");
    // the kernel writes raw UTF-8 bytes; read as ISO-8859-1 they must decode back
    String line = "40 22 0:40 / " + escaped + " rw - fuse.ossgw oss:x rw";
    String asRead = new String(line.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.ISO_8859_1);
    assertThat(MountInfo.parse(asRead).get(0).mountPoint()).isEqualTo(path);
    assertThat(MountInfo.unescape(MountInfo.escape("/plain"))).isEqualTo("/plain");
  }

  @Test
  void readsTheLiveTable() {
    assertThat(MountInfo.read()).anySatisfy(e -> assertThat(e.mountPoint()).isEqualTo("/"));
  }
}
