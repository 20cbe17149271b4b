package io.ossgw.core.write;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RangeSetTest {
  @Test
  void mergesOverlappingAndTouchingRanges() {
    RangeSet s = new RangeSet();
    s.add(10, 20);
    s.add(30, 40);
    s.add(20, 30);
    assertThat(s.toString()).isEqualTo("{10=40}");
    s.add(0, 5);
    s.add(3, 12);
    assertThat(s.toString()).isEqualTo("{0=40}");
    assertThat(s.contiguousFromZero()).isEqualTo(40);
    assertThat(s.bytes()).isEqualTo(40);
  }

  @Test
  void gapsListMissingSubRanges() {
    RangeSet s = new RangeSet();
    s.add(10, 20);
    s.add(30, 40);
    assertThat(s.gaps(0, 50)).containsExactly(new long[] {0, 10}, new long[] {20, 30}, new long[] {40, 50});
    assertThat(s.gaps(12, 18)).isEmpty();
    assertThat(s.gaps(15, 35)).containsExactly(new long[] {20, 30});
    assertThat(s.covers(10, 20)).isTrue();
    assertThat(s.covers(10, 21)).isFalse();
    assertThat(s.intersects(20, 30)).isFalse();
    assertThat(s.intersects(19, 30)).isTrue();
  }

  @Test
  void truncateCutsRanges() {
    RangeSet s = new RangeSet();
    s.add(0, 100);
    s.add(200, 300);
    s.truncate(50);
    assertThat(s.toString()).isEqualTo("{0=50}");
    s.truncate(0);
    assertThat(s.isEmpty()).isTrue();
    assertThat(s.first()).isEqualTo(-1);
  }
}
