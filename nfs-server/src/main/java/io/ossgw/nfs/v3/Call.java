package io.ossgw.nfs.v3;

import io.ossgw.core.vfs.Caller;
import io.ossgw.nfs.auth.Identities;
import io.ossgw.nfs.export.Export;
import java.net.InetSocketAddress;
import org.dcache.oncrpc4j.rpc.RpcCall;

/** One NFS call being served: the RPC call and the client's address. */
final class Call {
  final RpcCall rpc;
  final InetSocketAddress client;

  Call(RpcCall rpc) {
    this.rpc = rpc;
    this.client = rpc.getTransport().getRemoteSocketAddress();
  }

  /** The caller's identity on {@code export}, after squashing. */
  Caller caller(Export export) {
    return Identities.caller(rpc.getCredential(), export);
  }
}
