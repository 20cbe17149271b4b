package io.ossgw.nfs.auth;

import io.ossgw.core.vfs.Caller;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.Squash;
import io.ossgw.nfs.rpc.AuthRefused;
import org.dcache.oncrpc4j.rpc.RpcAuthStat;
import org.dcache.oncrpc4j.rpc.RpcAuth;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeUnix;

/**
 * The {@link Caller} an RPC credential stands for on an export: AUTH_SYS uid/gid/gids after squashing (exports(5)),
 * AUTH_NONE as the anonymous identity (accepted only on all_squash exports, {@link #requireAccepted}).
 */
public final class Identities {
  private Identities() {}

  /**
   * Checks the credential's flavor is accepted on the export: AUTH_SYS always, AUTH_NONE only on an export that maps
   * everyone to the anonymous identity anyway ({@code all_squash}); elsewhere an AUTH_NONE caller would pass for
   * anonuid without saying who it is.
   *
   * @throws AuthRefused AUTH_TOOWEAK (RFC 5531 §9) for AUTH_NONE on an export without all_squash
   */
  public static void requireAccepted(RpcAuth cred, Export export) {
    if (!(cred instanceof RpcAuthTypeUnix) && export.squash() != Squash.ALL_SQUASH) {
      throw new AuthRefused(RpcAuthStat.AUTH_TOOWEAK, "AUTH_NONE on " + export.path() + ", which is not all_squash");
    }
  }

  /** The flavors MNT announces for the export (RFC 1813 §5.2.1): AUTH_UNIX, and AUTH_NONE when all_squash. */
  public static int[] flavors(Export export) {
    return export.squash() == Squash.ALL_SQUASH ? new int[] {1, 0} : new int[] {1};
  }

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
