package io.ossgw.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.config.OptionCatalog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OptionTableTest {
  @Test
  void everyCatalogOptionIsListedWithItsKind() {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    OptionTable.print(new PrintStream(buf, true, StandardCharsets.UTF_8));
    String out = buf.toString(StandardCharsets.UTF_8);
    OptionCatalog.all().forEach(s -> assertThat(out).contains("`" + s.name() + (s.takesValue() ? "=`" : "`")));
    assertThat(out).contains("| `stat_cache_expire=`").contains("| engine ").contains("| fuse ")
        .contains("not implemented").startsWith("| Option");
  }
}
