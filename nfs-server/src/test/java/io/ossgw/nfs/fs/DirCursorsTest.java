package io.ossgw.nfs.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** READDIR positions over listings that change between pages. */
class DirCursorsTest {
  static List<DirEntry> listing(List<String> names) {
    Instant n = Instant.now();
    FileAttr a = new FileAttr(9, FileType.REGULAR, 0644, 0, 0, 0, n, n, n, null);
    List<String> sorted = new ArrayList<>(names);
    sorted.sort(DirCursors::compare);
    return sorted.stream().map(s -> new DirEntry(s, a)).toList();
  }

  /** Reads one page of {@code n} real entries, returning the names and the last cookie. */
  static List<String> page(DirCursors.Page p, List<DirEntry> l, int n, long[] lastCookie) {
    List<String> out = new ArrayList<>();
    for (int i = p.startIndex; i < l.size() && out.size() < n; i++) {
      lastCookie[0] = p.cookieOf(l.get(i).name());
      out.add(l.get(i).name());
    }
    return out;
  }

  @Test
  void resumesAfterTheLastNameWhateverChanged() {
    DirCursors c = new DirCursors(1000, Duration.ofMinutes(1));
    List<String> names = new ArrayList<>(List.of("a", "b", "c", "d", "e", "f"));
    List<DirEntry> l = listing(names);
    DirCursors.Page p = c.start(1, 2, 0, 0, l);
    assertThat(p.startCookie).isEqualTo(DirCursors.DOT);
    long[] cookie = {0};
    assertThat(page(p, l, 3, cookie)).containsExactly("a", "b", "c");
    // "b" removed, "bb" and "cc" added before the next page
    names.remove("b");
    names.add("bb");
    names.add("cc");
    List<DirEntry> l2 = listing(names);
    DirCursors.Page p2 = c.start(1, 2, cookie[0], p.verifier, l2);
    assertThat(p2.verifier).isEqualTo(p.verifier);
    assertThat(page(p2, l2, 10, cookie)).containsExactly("cc", "d", "e", "f");
    // asking the same page again gives the same cookies
    DirCursors.Page again = c.start(1, 2, DirCursors.DOTDOT, p.verifier, l2);
    long[] c2 = {0};
    page(again, l2, 1, c2);
    assertThat(c2[0]).isEqualTo(3);
  }

  @Test
  void anUnknownVerifierContinuesByPosition() {
    DirCursors c = new DirCursors(1000, Duration.ofMinutes(1));
    List<DirEntry> l = listing(List.of("a", "b", "c", "d"));
    DirCursors.Page p = c.start(1, 2, 4, 0xdeadbeefL, l); // cookie 4 = after the 2nd name
    assertThat(p.startIndex).isEqualTo(2);
    assertThat(p.verifier).isNotEqualTo(0xdeadbeefL);
    long[] cookie = {0};
    assertThat(page(p, l, 10, cookie)).containsExactly("c", "d");
    // a verifier of another directory is not used
    DirCursors.Page other = c.start(1, 3, 4, p.verifier, l);
    assertThat(other.verifier).isNotEqualTo(p.verifier);
  }

  @Test
  void ordersLikeUtf8Bytes() {
    // U+FF5E sorts before U+1F600 in UTF-8 (and code points), after it in UTF-16
    String bmp = "\uff5e";
    String astral = new String(Character.toChars(0x1f600));
    assertThat(DirCursors.compare(bmp, astral)).isNegative();
    assertThat(bmp.compareTo(astral)).isPositive();
    List<DirEntry> l = listing(List.of(astral, bmp, "a"));
    assertThat(l.stream().map(DirEntry::name)).containsExactly("a", bmp, astral);
    assertThat(DirCursors.after(l, bmp)).isEqualTo(2);
    assertThat(DirCursors.after(l, "0")).isZero();
    assertThat(DirCursors.after(l, "zz")).as("ASCII sorts before U+FF5E").isEqualTo(1);
    assertThat(DirCursors.after(l, astral)).isEqualTo(3);
    assertThat(l.stream().map(DirEntry::name).sorted(Comparator.naturalOrder()).toList()).isNotEqualTo(
        l.stream().map(DirEntry::name).toList());
  }
}
