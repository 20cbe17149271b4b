package io.ossgw.nfs.v4;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.ExportTest;
import io.ossgw.nfs.export.Exports;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pseudo file system's shape (RFC 8881 §7.3) from export paths, and what each client address sees of it. */
class PseudoFsTest {
  static final InetAddress LOCAL = InetAddress.getLoopbackAddress();

  static Export e(String path, String... cidrs) {
    Export.Builder b = Export.builder(path, ExportTest.FS);
    if (cidrs.length > 0) {
      b.clients(List.of(cidrs));
    }
    return b.build();
  }

  static List<String> names(PseudoFs p, String dir, InetAddress a) {
    return p.children(p.byPath(dir), a).stream().map(PseudoFs.Child::name).toList();
  }

  @Test
  void intermediateDirectoriesAndCidrFiltering() throws Exception {
    PseudoFs p = new PseudoFs(new Exports(List.of(e("/b"), e("/a/x"), e("/a/y/z", "10.0.0.0/8"), e("/h", "10.0.0.0/8"))));
    assertThat(names(p, "/", LOCAL)).containsExactly("a", "b");
    assertThat(names(p, "/a", LOCAL)).containsExactly("x");
    InetAddress ten = InetAddress.getByName("10.1.2.3");
    assertThat(names(p, "/", ten)).containsExactly("a", "b", "h");
    assertThat(names(p, "/a", ten)).containsExactly("x", "y");
    assertThat(names(p, "/a/y", ten)).containsExactly("z");
    assertThat(p.visible(p.byPath("/a/y"), LOCAL)).isFalse();
    assertThat(p.byPath("/b")).isNull(); // an export, not a pseudo node
    assertThat(p.child(p.byPath("/"), "b", LOCAL).export().path()).isEqualTo("/b");
    assertThat(p.byFileid(PseudoFs.fileidOf("/a"))).isEqualTo(p.byPath("/a"));
  }

  @Test
  void pathsInsideAnExportAreNotPseudoNodes() {
    PseudoFs p = new PseudoFs(new Exports(List.of(e("/a"), e("/a/b/c"))));
    assertThat(p.byPath("/a/b")).isNull();
    assertThat(names(p, "/", LOCAL)).containsExactly("a");
    PseudoFs rooted = new PseudoFs(new Exports(List.of(e("/"), e("/x"))));
    assertThat(rooted.byPath("/")).isNull(); // the root export is the root
  }
}
