package io.ossgw.app.health;

import io.ossgw.app.serve.Gateway;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * {@code /q/health/live}: UP while the process serves HTTP and has not been stopped. OSS outages and lost mounts only
 * affect readiness: restarting the process would not bring OSS back.
 */
@Liveness
@ApplicationScoped
public class GatewayLiveness implements HealthCheck {
  @Inject Gateway gateway;

  @Override
  public HealthCheckResponse call() {
    return HealthCheckResponse.named("ossgw")
        .status(gateway.state() != Gateway.State.STOPPED)
        .withData("state", gateway.state().name())
        .withData("mounts", gateway.mounts().size())
        .build();
  }
}
