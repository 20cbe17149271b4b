package io.ossgw.app.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** When {@link NfsFrontEnd} warns that an export is open to everyone (issue 9 item 9). */
class NfsFrontEndTest {
  @Test
  void anExportIsOpenToEveryoneWhenAClientEntryHasPrefixZero() {
    assertThat(NfsFrontEnd.openToEveryone(List.of("*"))).isTrue();
    assertThat(NfsFrontEnd.openToEveryone(List.of("10.0.0.0/8", "0.0.0.0/0"))).isTrue();
    assertThat(NfsFrontEnd.openToEveryone(List.of("10.0.0.0/8", "192.168.1.7"))).isFalse();
  }

  @Test
  void loopbackBindsNeedNoWarning() {
    assertThat(NfsFrontEnd.isLoopback("127.0.0.1")).isTrue();
    assertThat(NfsFrontEnd.isLoopback("::1")).isTrue();
    assertThat(NfsFrontEnd.isLoopback("0.0.0.0")).isFalse();
    assertThat(NfsFrontEnd.isLoopback("10.1.2.3")).isFalse();
  }
}
