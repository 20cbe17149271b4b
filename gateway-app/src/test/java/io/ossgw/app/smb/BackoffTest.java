package io.ossgw.app.smb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
  static final Duration SHORT = Duration.ofSeconds(1);

  @Test
  void doublesUpToTheCapAndStaysThere() {
    Backoff b = Backoff.smbdDefault();
    assertThat(b.next(SHORT)).isEqualTo(Duration.ofSeconds(1));
    assertThat(b.next(SHORT)).isEqualTo(Duration.ofSeconds(2));
    assertThat(b.next(SHORT)).isEqualTo(Duration.ofSeconds(4));
    assertThat(b.next(SHORT)).isEqualTo(Duration.ofSeconds(8));
    assertThat(b.next(SHORT)).isEqualTo(Duration.ofSeconds(16));
    assertThat(b.next(SHORT)).isEqualTo(Duration.ofSeconds(30));
    assertThat(b.next(SHORT)).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void aChildThatRanLongEnoughStartsOverFromTheFirstDelay() {
    Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofSeconds(60));
    b.next(SHORT);
    b.next(SHORT);
    assertThat(b.next(SHORT)).isEqualTo(Duration.ofMillis(400));
    assertThat(b.next(Duration.ofSeconds(60))).isEqualTo(Duration.ofMillis(100));
    assertThat(b.next(Duration.ofSeconds(59))).isEqualTo(Duration.ofMillis(200));
  }

  @Test
  void refusesNonsense() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
