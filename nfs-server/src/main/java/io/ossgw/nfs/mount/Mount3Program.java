package io.ossgw.nfs.mount;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.export.Cidr;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.Exports;
import io.ossgw.nfs.handle.FileHandles;
import io.ossgw.core.inode.InodeTable;
import io.ossgw.nfs.xdr.Nfs3;
import io.ossgw.nfs.xdr.XdrNameException;
import io.ossgw.nfs.xdr.Xdrs;
import io.ossgw.nfs.xdr.dirpath;
import io.ossgw.nfs.xdr.exportnode;
import io.ossgw.nfs.xdr.mountbody;
import io.ossgw.nfs.xdr.mountres3;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcDispatchable;
import org.dcache.oncrpc4j.xdr.XdrVoid;

/**
 * MOUNT version 3 (program 100005, RFC 1813 §5): MNT of an export or of any directory below it (libnfs mounts the
 * parent directory of the file it copies), UMNT, UMNTALL, EXPORT and DUMP. A client outside an export's networks
 * gets MNT3ERR_ACCES; a secure export refuses unprivileged source ports the same way. The mount list DUMP reports is
 * kept in memory (informational, as in RFC 1813).
 */
public final class Mount3Program implements RpcDispatchable {
  private static final System.Logger LOG = System.getLogger(Mount3Program.class.getName());

  private final Exports exports;
  private final InodeTable table;
  private final FileHandles handles;
  /** Most entries DUMP remembers: the list is informational and must not grow without bound. */
  private static final int MAX_MOUNTS = 10_000;
  private final Set<mountbody> mounts = ConcurrentHashMap.newKeySet();

  public Mount3Program(Exports exports, InodeTable table) {
    this.exports = exports;
    this.table = table;
    this.handles = new FileHandles(table.secret());
  }

  @Override
  public void dispatchOncRpcCall(RpcCall call) throws OncRpcException, IOException {
    switch (call.getProcedure()) {
      case Nfs3.MOUNTPROC3_NULL -> {
        call.retrieveCall(XdrVoid.XDR_VOID);
        call.reply(XdrVoid.XDR_VOID);
      }
      case Nfs3.MOUNTPROC3_MNT -> {
        Xdrs.Decoder<String> path = Xdrs.decoder(dirpath::decode);
        try {
          call.retrieveCall(path);
        } catch (XdrNameException e) {
          call.reply(Xdrs.encoder(mountres3.fail(Nfs3.MNT3ERR_INVAL)));
          return;
        }
        call.reply(Xdrs.encoder(mnt(call, path.value())));
      }
      case Nfs3.MOUNTPROC3_DUMP -> {
        call.retrieveCall(XdrVoid.XDR_VOID);
        call.reply(Xdrs.encoder(new mountbody.mountlist(new ArrayList<>(mounts))));
      }
      case Nfs3.MOUNTPROC3_UMNT -> {
        Xdrs.Decoder<String> path = Xdrs.decoder(dirpath::decode);
        call.retrieveCall(path);
        mounts.remove(new mountbody(host(call), path.value()));
        call.reply(XdrVoid.XDR_VOID);
      }
      case Nfs3.MOUNTPROC3_UMNTALL -> {
        call.retrieveCall(XdrVoid.XDR_VOID);
        String host = host(call);
        mounts.removeIf(m -> m.hostname().equals(host));
        call.reply(XdrVoid.XDR_VOID);
      }
      case Nfs3.MOUNTPROC3_EXPORT -> {
        call.retrieveCall(XdrVoid.XDR_VOID);
        List<exportnode> nodes = new ArrayList<>();
        for (Export e : exports.all()) {
          List<String> groups = e.clients().contains(Cidr.ANY) ? List.of()
              : e.clients().stream().map(Cidr::toString).toList();
          nodes.add(new exportnode(e.path(), groups));
        }
        call.reply(Xdrs.encoder(new exportnode.exports(nodes)));
      }
      default -> call.failProcedureUnavailable();
    }
  }

  /** RFC 1813 §5.2.1 MNT: the handle of the export directory (or a directory below it) and AUTH_UNIX. */
  mountres3 mnt(RpcCall call, String path) {
    Exports.Match m = exports.match(path);
    if (m == null) {
      return mountres3.fail(Nfs3.MNT3ERR_NOENT);
    }
    Export e = m.export();
    InetSocketAddress client = call.getTransport().getRemoteSocketAddress();
    if (client == null || !e.allows(client.getAddress()) || (e.secure() && client.getPort() >= 1024)) {
      LOG.log(System.Logger.Level.INFO, "MNT " + path + " refused to " + client);
      return mountres3.fail(Nfs3.MNT3ERR_ACCES);
    }
    io.ossgw.nfs.auth.Identities.requireAccepted(call.getCredential(), e);
    try {
      FileAttr a = e.fs().getattr(m.vfsPath());
      if (!a.isDirectory()) {
        return mountres3.fail(Nfs3.MNT3ERR_NOTDIR);
      }
      long[] id = table.idOf(e.id(), m.vfsPath(), a.ino());
      table.commit();
      if (mounts.size() < MAX_MOUNTS) {
        mounts.add(new mountbody(host(call), path));
      }
      return new mountres3(Nfs3.MNT3_OK, handles.encode(e.id(), id[0], (int) id[1]),
          io.ossgw.nfs.auth.Identities.flavors(e));
    } catch (FsException ex) {
      return mountres3.fail(switch (ex.errno()) {
        case ENOENT -> Nfs3.MNT3ERR_NOENT;
        case ENOTDIR -> Nfs3.MNT3ERR_NOTDIR;
        case EACCES -> Nfs3.MNT3ERR_ACCES;
        case ENAMETOOLONG -> Nfs3.MNT3ERR_NAMETOOLONG;
        case EINVAL -> Nfs3.MNT3ERR_INVAL;
        default -> ex.errno() == Errno.EIO ? Nfs3.MNT3ERR_IO : Nfs3.MNT3ERR_SERVERFAULT;
      });
    }
  }

  private static String host(RpcCall call) {
    InetSocketAddress a = call.getTransport().getRemoteSocketAddress();
    return a == null ? "unknown" : a.getAddress().getHostAddress();
  }
}
