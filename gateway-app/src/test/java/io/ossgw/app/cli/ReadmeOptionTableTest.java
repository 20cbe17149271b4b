package io.ossgw.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The options table of README.md is the output of {@code ossgw mount --list-options}, so it cannot drift. */
class ReadmeOptionTableTest {
  private static final String BEGIN = "<!-- options:begin -->\n";
  private static final String END = "<!-- options:end -->";

  @Test
  void readmeTableIsTheListOptionsOutput() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"));
    int b = readme.indexOf(BEGIN);
    int e = readme.indexOf(END);
    assertThat(b).as("README.md has the options markers").isNotNegative();
    assertThat(e).isGreaterThan(b);
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    OptionTable.print(new PrintStream(buf, true, StandardCharsets.UTF_8));
    assertThat(readme.substring(b + BEGIN.length(), e))
        .as("README.md options table; regenerate it with: ./ossgw mount --list-options")
        .isEqualTo(buf.toString(StandardCharsets.UTF_8));
  }
}
