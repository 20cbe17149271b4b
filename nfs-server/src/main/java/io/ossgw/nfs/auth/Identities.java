package io.ossgw.nfs.auth;

import io.ossgw.core.vfs.Caller;
import io.ossgw.nfs.export.Export;
import org.dcache.oncrpc4j.rpc.RpcAuth;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeUnix;

/**
 * The {@link Caller} an RPC credential stands for on an export: AUTH_SYS uid/gid/gids after squashing (exports(5)),
 * AUTH_NONE as the anonymous identity.
 */
public final class Identities {
  private Identities() {}

  /** The squashed caller of {@code cred} on {@code export}. */
  public static Caller caller(RpcAuth cred, Export export) {
    if (!(cred instanceof RpcAuthTypeUnix unix)) {
      return anonymous(export);
    }
    return squash(new Caller(unix.uid(), unix.gid(), unix.gids()), export);
  }

  /**
   * Applies the export's squash mode: root_squash maps uid 0 to anonuid and gid 0 (primary or supplementary) to
   * anongid, all_squash maps everyone, no_root_squash nobody.
   */
  public static Caller squash(Caller c, Export export) {
    return switch (export.squash()) {
      case NO_ROOT_SQUASH -> c;
      case ALL_SQUASH -> anonymous(export);
      case ROOT_SQUASH -> {
        int uid = c.uid() == 0 ? export.anonUid() : c.uid();
        int gid = c.gid() == 0 ? export.anonGid() : c.gid();
        int[] groups = c.groups().clone();
        for (int i = 0; i < groups.length; i++) {
          if (groups[i] == 0) {
            groups[i] = export.anonGid();
          }
        }
        yield new Caller(uid, gid, groups);
      }
    };
  }

  private static Caller anonymous(Export export) {
    return new Caller(export.anonUid(), export.anonGid(), new int[0]);
  }
}
