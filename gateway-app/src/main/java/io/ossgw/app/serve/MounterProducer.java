package io.ossgw.app.serve;

import io.ossgw.app.mount.FuseMounterAdapter;
import io.ossgw.app.mount.Mounter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** The FUSE {@link Mounter} {@code serve} uses; tests replace it with one that does not need the kernel. */
@ApplicationScoped
public class MounterProducer {
  @Produces
  @ApplicationScoped
  Mounter mounter() {
    return new FuseMounterAdapter();
  }
}
