package io.ossgw.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.runtime.QuarkusBindException;
import java.net.BindException;
import org.junit.jupiter.api.Test;

class StartupHintTest {
  @Test
  void aTakenHttpPortNamesTheDocumentedSettings() {
    var failure = new RuntimeException("Failed to start application",
        new QuarkusBindException("127.0.0.1", 8080, new BindException("Address already in use")));
    assertThat(OssgwMain.startupHint(failure))
        .startsWith("the HTTP port 8080 (health and metrics) is already in use on 127.0.0.1")
        .contains("QUARKUS_HTTP_PORT=PORT").contains("quarkus.http.port=PORT (--config FILE)");
  }

  @Test
  void otherFailuresAndNormalExitsGetNoHint() {
    assertThat(OssgwMain.startupHint(null)).isNull();
    assertThat(OssgwMain.startupHint(new IllegalStateException("x"))).isNull();
  }
}
