package io.ossgw.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.OpenFlags;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OpenFileTableTest {
  private static FileHandle handle(String path) {
    return new FileHandle() {
      @Override
      public String path() {
        return path;
      }

      @Override
      public OpenFlags flags() {
        return OpenFlags.READ_ONLY;
      }
    };
  }

  @Test
  void addGetRemoveAndStaleFhMisses() {
    OpenFileTable t = new OpenFileTable();
    FileHandle a = handle("/a");
    long fa = t.add(a);
    assertThat(fa).isNotZero();
    assertThat(t.get(fa)).isSameAs(a);
    assertThat(t.remove(fa)).isSameAs(a);
    assertThat(t.get(fa)).isNull();
    assertThat(t.remove(fa)).isNull();
    FileHandle b = handle("/b");
    long fb = t.add(b); // reuses the slot with a new generation
    assertThat((int) fb).isEqualTo((int) fa);
    assertThat(fb).isNotEqualTo(fa);
    assertThat(t.get(fa)).isNull();
    assertThat(t.get(fb)).isSameAs(b);
    assertThat(t.get(0)).isNull();
    assertThat(t.get(-1)).isNull();
    assertThat(t.get(Long.MAX_VALUE)).isNull();
  }

  @Test
  void growsAndDrains() {
    OpenFileTable t = new OpenFileTable();
    List<Long> fhs = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      fhs.add(t.add(handle("/f" + i)));
    }
    assertThat(new HashSet<>(fhs)).hasSize(500);
    assertThat(t.size()).isEqualTo(500);
    for (int i = 0; i < 500; i += 2) {
      t.remove(fhs.get(i));
    }
    assertThat(t.get(fhs.get(499)).path()).isEqualTo("/f499");
    Set<String> left = new HashSet<>();
    t.drain().forEach(h -> left.add(h.path()));
    assertThat(left).hasSize(250).contains("/f1", "/f499").doesNotContain("/f0");
    assertThat(t.size()).isZero();
    assertThat(t.get(fhs.get(1))).isNull();
  }
}
