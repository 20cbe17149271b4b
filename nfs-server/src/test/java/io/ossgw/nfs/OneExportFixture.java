package io.ossgw.nfs;

import io.ossgw.nfs.xdr.nfs_fh3;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The set-up the NFS procedure tests share, once per test class: {@link NfsGateway#simple} (one export of the
 * emulator's bucket over an engine), an {@link NfsClient} calling as uid/gid 1000, and the export's root handle from
 * MOUNT. Test classes run one after the other (no parallel execution), so the static fields belong to the running one.
 */
abstract class OneExportFixture {
  @TempDir
  static Path state;
  static NfsGateway gw;
  static NfsClient nfs;
  static nfs_fh3 root;

  @BeforeAll
  static void startExport() {
    gw = NfsGateway.simple(state);
    nfs = new NfsClient(gw.port(), 1000, 1000);
    root = nfs.root("/" + NfsGateway.BUCKET);
  }

  @AfterAll
  static void stopExport() {
    nfs.close();
    gw.close();
  }
}
