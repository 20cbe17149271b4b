package io.ossgw.app.serve;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.ossgw.testsupport.Slowdown;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * serve's health and metrics over HTTP with a real engine against the emulator; FUSE is replaced by {@link
 * FakeMounter} so the test needs no kernel mount.
 */
@QuarkusTest
@QuarkusTestResource(value = EmulatorResource.class, restrictToAnnotatedClass = true)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HealthAndMetricsTest {
  @Inject
  Gateway gateway;

  @Inject
  FakeMounter mounter;

  @Test
  @Order(1)
  void notReadyBeforeStart() {
    given().get("/q/health/ready").then().statusCode(503).body("status", equalTo("DOWN"));
    given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
    given().get("/q/metrics").then().statusCode(200).body(containsString("ossgw_engine_starts_total 0.0"));
  }

  @Test
  @Order(2)
  void readyWhenMountedAndOssAnswers() {
    gateway.start();
    assertThat(gateway.mounts()).hasSize(1);
    assertThat(EmulatorResource.emulator.counters().get("ListObjectsV2")).isPositive();
    given().get("/q/health/ready").then().statusCode(200)
        .body("status", equalTo("UP"))
        .body("checks[0].data.'oss.health-bkt'", equalTo("reachable"));
    given().get("/q/health/live").then().statusCode(200).body("checks[0].data.state", equalTo("RUNNING"));
    given().get("/q/metrics").then().statusCode(200)
        .body(containsString("ossgw_engine_starts_total 1.0"))
        .body(containsString("ossgw_fuse_operations_total{mount=\"t\",op=\"getattr\"} 0.0"))
        .body(containsString("ossgw_mount_up{mount=\"t\"} 1.0"));
  }

  @Test
  @Order(3)
  void notReadyWhenOssFails() throws InterruptedException {
    EmulatorResource.emulator.faults().failWith(403, "AccessDenied", 1.0, Set.of("ListObjectsV2"));
    try {
      // the next check (ossgw.health.oss-check-interval=1s) sees the fault
      assertThat(Slowdown.waitUntil(() -> given().get("/q/health/ready").statusCode() == 503, Duration.ofSeconds(10)))
          .as("ready turns DOWN").isTrue();
      given().get("/q/health/ready").then().statusCode(503)
          .body("checks[0].data.'oss.health-bkt'", containsString("AccessDenied"));
      given().get("/q/health/live").then().statusCode(200);
    } finally {
      EmulatorResource.emulator.faults().clear();
    }
    assertThat(Slowdown.waitUntil(() -> given().get("/q/health/ready").statusCode() == 200, Duration.ofSeconds(10)))
        .as("ready turns UP again").isTrue();
  }

  @Test
  @Order(4)
  void notReadyWhenTheMountIsGone() {
    mounter.last().close(); // as if `fusermount -u` had been run
    given().get("/q/health/ready").then().statusCode(503).body("checks[0].data.'mount.t'", equalTo("NOT MOUNTED"));
    given().get("/q/metrics").then().body(containsString("ossgw_mount_up{mount=\"t\"} 0.0"));
  }

  @Test
  @Order(5)
  void stopUnmountsAndClosesEverything() {
    gateway.stop();
    assertThat(gateway.state()).isEqualTo(Gateway.State.STOPPED);
    assertThat(gateway.mounts()).isEmpty();
    given().get("/q/health/live").then().statusCode(503);
  }
}
