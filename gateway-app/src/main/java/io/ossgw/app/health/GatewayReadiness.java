package io.ossgw.app.health;

import io.ossgw.app.cluster.ClusterService;
import io.ossgw.app.serve.Gateway;
import io.ossgw.app.serve.ServedMount;
import io.ossgw.core.engine.Engine;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /q/health/ready}: UP when the gateway has started (the NFS server listening, with every version of
 * {@code ossgw.nfs.versions} registered, if exports are configured),
 * every configured mount is still mounted, smbd runs and every SMB share is mounted (if shares are configured), and
 * OSS answers for every engine ({@link OssProbe}). Data: {@code mount.<name>} = mount point or "NOT MOUNTED",
 * {@code export.<name>} = its path, {@code nfs.port}, {@code nfs.versions} = the NFS versions the running server
 * registered ("3,4.1", "3" or "4.1"), {@code smb} = "smbd listening on ADDR:PORT" or what is wrong,
 * {@code share.<name>} = its mount point, {@code oss.<bucket>} = "reachable" or the error. In a cluster
 * ({@code ossgw.cluster.store}) in standby mode only the holder of the serving lease is ready, and {@code cluster}
 * says where this node stands ({@link ClusterService#status}).
 */
@Readiness
@ApplicationScoped
public class GatewayReadiness implements HealthCheck {
  @Inject Gateway gateway;
  @Inject OssProbe probe;
  @Inject ClusterService cluster;

  @Override
  public HealthCheckResponse call() {
    HealthCheckResponseBuilder b = HealthCheckResponse.named("ossgw");
    if (gateway.state() != Gateway.State.RUNNING) {
      return b.down().withData("state", gateway.state().name()).build();
    }
    boolean up = true;
    if (cluster.settings().isPresent()) { // standby mode: only the lease holder is ready (a balancer sends it all)
      up &= cluster.ready();
      b.withData("cluster", cluster.status());
    }
    for (ServedMount m : gateway.mounts()) {
      boolean mounted = m.handle().isMounted();
      up &= mounted;
      b.withData("mount." + m.name(), mounted ? m.plan().mountpoint().toString() : "NOT MOUNTED");
    }
    for (Engine e : gateway.engines()) {
      String error = probe.check(e, gateway.ossCheckInterval());
      up &= error == null;
      String key = "oss." + e.config().bucket() + (e.config().prefix().isEmpty() ? "" : ":/" + e.config().prefix());
      b.withData(key, error == null ? "reachable" : error);
    }
    for (var x : gateway.exports()) {
      b.withData("export." + x.name(), x.path());
    }
    gateway.nfsPort().ifPresent(port -> b.withData("nfs.port", port));
    gateway.nfsServer().ifPresent(nfs -> b.withData("nfs.versions",
        nfs.servesV3() && nfs.servesV41() ? "3,4.1" : nfs.servesV3() ? "3" : "4.1"));
    var smb = gateway.smb().orElse(null);
    if (smb != null) {
      boolean smbUp = smb.isRunning(); // smbd alive and every share still mounted
      up &= smbUp;
      b.withData("smb", smbUp ? "smbd listening on " + smb.settings().bind() + ":" + smb.settings().port()
          : smb.smbdRunning() ? "a share is NOT MOUNTED" : "smbd NOT RUNNING (restarting)");
      smb.shares().forEach(sh -> b.withData("share." + sh.share().name(), sh.mountpoint().toString()));
    }
    gateway.emulatorEndpoint().ifPresent(ep -> b.withData("emulator", ep));
    return b.status(up).build();
  }
}
