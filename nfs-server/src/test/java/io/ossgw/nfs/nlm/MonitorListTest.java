package io.ossgw.nfs.nlm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state directory's {@code nlm-hosts} read back: each start raises the NSM state number to the next odd one and
 * writes it before serving; bad content is ignored with a warning, not a failed start.
 */
class MonitorListTest {
  @TempDir
  Path dir;

  @Test
  void eachStartRaisesTheStateToTheNextOddNumberAndKeepsTheHosts() throws Exception {
    Files.writeString(dir.resolve(MonitorList.FILE), "ossgw nlm-hosts 1\nstate 8\n10.0.0.7 10.0.0.1 686f737461\n"
        + "not a host line\n");
    MonitorList m = MonitorList.open(dir, Clock.systemUTC());
    assertThat(m.state()).isEqualTo(9);
    assertThat(m.toNotify()).containsExactly(new MonitorList.Host("hosta", "10.0.0.7", "10.0.0.1"));
    assertThat(Files.readString(dir.resolve(MonitorList.FILE))).isEqualTo("ossgw nlm-hosts 1\nstate 9\n"
        + "10.0.0.7 10.0.0.1 686f737461\n");
    assertThat(MonitorList.open(dir, Clock.systemUTC()).state()).isEqualTo(11);
  }

  @Test
  void aFileThatIsNotAMonitorListIsIgnored() throws Exception {
    for (String bad : new String[] {"", "ossgw nlm-hosts 1\nstate x\n", "something else\nstate 5\n"}) {
      Files.writeString(dir.resolve(MonitorList.FILE), bad);
      MonitorList m = MonitorList.open(dir, Clock.systemUTC());
      assertThat(m.state()).as(bad).isEqualTo(1);
      assertThat(m.toNotify()).isEmpty();
    }
    assertThat(MonitorList.open(null, Clock.systemUTC()).state()).isEqualTo(1);
  }
}
