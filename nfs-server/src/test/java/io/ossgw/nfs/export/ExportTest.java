package io.ossgw.nfs.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.vfs.VirtualFileSystem;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CIDR matching, export paths and the export table. */
public class ExportTest {
  /** Exports only hold their VFS; nothing here calls it. */
  public static final VirtualFileSystem FS = (VirtualFileSystem) Proxy.newProxyInstance(ExportTest.class.getClassLoader(),
      new Class<?>[] {VirtualFileSystem.class}, (p, m, a) -> {
        throw new UnsupportedOperationException(m.getName());
      });

  static InetAddress ip(String s) throws Exception {
    return InetAddress.getByName(s);
  }

  @Test
  void cidrs() throws Exception {
    assertThat(Cidr.parse("10.0.0.0/8").matches(ip("10.200.1.2"))).isTrue();
    assertThat(Cidr.parse("10.0.0.0/8").matches(ip("11.0.0.1"))).isFalse();
    assertThat(Cidr.parse("10.1.2.3/8").toString()).isEqualTo("10.0.0.0/8");
    assertThat(Cidr.parse("192.168.1.7").matches(ip("192.168.1.7"))).isTrue();
    assertThat(Cidr.parse("192.168.1.7").matches(ip("192.168.1.8"))).isFalse();
    assertThat(Cidr.parse("172.16.0.0/12").matches(ip("172.31.255.255"))).isTrue();
    assertThat(Cidr.parse("172.16.0.0/12").matches(ip("172.32.0.0"))).isFalse();
    assertThat(Cidr.parse("127.0.0.1/32").matches(ip("::ffff:127.0.0.1"))).isTrue();
    assertThat(Cidr.parse("fd00::/8").matches(ip("fd12::1"))).isTrue();
    assertThat(Cidr.parse("fd00::/8").matches(ip("10.0.0.1"))).isFalse();
    assertThat(Cidr.parse("*").matches(ip("8.8.8.8"))).isTrue();
    assertThat(Cidr.parse("0.0.0.0/0").matches(ip("8.8.8.8"))).isTrue();
    for (String bad : List.of("example.com", "10.0.0.0/33", "10.0.0.0/x", "", "1.2.3.4/-1")) {
      assertThatThrownBy(() -> Cidr.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void exportPathsIdsAndDefaults() throws Exception {
    Export e = Export.builder("/bucket/prefix", FS).build();
    assertThat(e.readOnly()).isFalse();
    assertThat(e.squash()).isEqualTo(Squash.ROOT_SQUASH);
    assertThat(e.anonUid()).isEqualTo(65534);
    assertThat(e.anonGid()).isEqualTo(65534);
    assertThat(e.secure()).isFalse();
    assertThat(e.allows(ip("203.0.113.9"))).isTrue();
    assertThat(e.id()).isEqualTo(Export.idOf("/bucket/prefix")).isNotEqualTo(Export.idOf("/bucket"));
    Export r = Export.builder("/b", FS).clients(List.of("10.0.0.0/8")).id(77).build();
    assertThat(r.allows(ip("127.0.0.1"))).isFalse();
    assertThat(r.id()).isEqualTo(77);
    for (String bad : List.of("bucket", "/a//b", "/a/", "/a/./b", "/a/../b")) {
      assertThatThrownBy(() -> Export.builder(bad, FS).build()).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> Export.builder("/b", FS).clients(List.of()).build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void mountPathsMatchTheLongestExport() {
    Exports t = new Exports(List.of(Export.builder("/b", FS).build(), Export.builder("/b/deep", FS).build(),
        Export.builder("/bb", FS).build()));
    assertThat(t.match("/b").vfsPath()).isEqualTo("/");
    assertThat(t.match("/b/x/y").vfsPath()).isEqualTo("/x/y");
    assertThat(t.match("/b/deep/z").export().path()).isEqualTo("/b/deep");
    assertThat(t.match("/b/deep/z").vfsPath()).isEqualTo("/z");
    assertThat(t.match("/bb/q").export().path()).isEqualTo("/bb");
    assertThat(t.match("/b/").vfsPath()).isEqualTo("/");
    assertThat(t.match("/c")).isNull();
    assertThat(t.match("/")).isNull();
    assertThatThrownBy(() -> new Exports(List.of(Export.builder("/b", FS).build(), Export.builder("/b", FS).build())))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
