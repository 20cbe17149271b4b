package io.ossgw.nfs.nlm;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.Xdrs;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcDispatchable;
import org.dcache.oncrpc4j.xdr.XdrVoid;

/**
 * The part of the status monitor NSM version 1 (program 100024, XNFS chapter 11) a lock server needs from the
 * outside: SM_NOTIFY, which a rebooted client's sm-notify sends (over UDP, found through rpcbind) to every server it
 * held locks on. It releases every NLM lock of that client: its {@code mon_name} (the host name lockd sends as
 * caller_name) at the address the notification comes from. SM_NULL is answered; SM_STAT, SM_MON, SM_UNMON,
 * SM_UNMON_ALL and SM_SIMU_CRASH are the local lockd's interface to its own statd and get PROC_UNAVAIL.
 *
 * <p>Served on the rpcbind port by {@link io.ossgw.nfs.rpc.EmbeddedRpcbind}, so only when rpcbind is on.
 */
public final class Nsm1Program implements RpcDispatchable {
  public static final int PROGRAM = 100024;
  public static final int VERSION = 1;
  static final int SM_NULL = 0;
  static final int SM_NOTIFY = 6;

  private final Nlm4Program nlm;

  public Nsm1Program(Nlm4Program nlm) {
    this.nlm = nlm;
  }

  /** struct stat_chge: the rebooted host's name and its new state number (received, and sent by SmNotifier). */
  record stat_chge(String mon_name, int state) implements io.ossgw.nfs.xdr.XdrType {
    static stat_chge decode(XdrReader r) {
      return new stat_chge(r.string(Nlm4.SM_MAXSTRLEN), r.int32());
    }

    @Override
    public void encode(io.ossgw.nfs.xdr.XdrWriter w) {
      w.string(mon_name).int32(state);
    }
  }

  @Override
  public void dispatchOncRpcCall(RpcCall call) throws OncRpcException, IOException {
    switch (call.getProcedure()) {
      case SM_NULL -> {
        call.retrieveCall(XdrVoid.XDR_VOID);
        call.reply(XdrVoid.XDR_VOID);
      }
      case SM_NOTIFY -> {
        Xdrs.Decoder<stat_chge> a = Xdrs.decoder(stat_chge::decode);
        try {
          call.retrieveCall(a);
        } catch (io.ossgw.nfs.xdr.XdrException e) {
          call.failRpcGarbage(); // this program runs on oncrpc4j's own service, not behind the Dispatcher
          return;
        }
        InetSocketAddress from = call.getTransport().getRemoteSocketAddress();
        if (from != null) {
          InetAddress ip = from.getAddress();
          nlm.rebooted(a.value().mon_name(), ip, a.value().state());
        }
        call.reply(XdrVoid.XDR_VOID);
      }
      default -> call.failProcedureUnavailable();
    }
  }
}
