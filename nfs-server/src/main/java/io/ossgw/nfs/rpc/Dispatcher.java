package io.ossgw.nfs.rpc;

import io.ossgw.nfs.xdr.XdrException;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcDispatchable;
import org.dcache.oncrpc4j.rpc.RpcException;

/**
 * Routes a decoded call to its program on a worker thread and turns every failure into an RPC reply: undecodable
 * arguments are GARBAGE_ARGS, an {@link AuthRefused} AUTH_ERROR, anything unexpected SYSTEM_ERR (RFC 5531 §9). The worker never dies of a bad call.
 */
final class Dispatcher {
  private static final System.Logger LOG = System.getLogger(Dispatcher.class.getName());

  private record Versions(int low, int high, Map<Integer, RpcDispatchable> handlers) {}

  private final Map<Integer, Versions> programs = new HashMap<>();

  Dispatcher(List<RpcProgram> list) {
    Map<Integer, Map<Integer, RpcDispatchable>> byNumber = new HashMap<>();
    for (RpcProgram p : list) {
      byNumber.computeIfAbsent(p.number(), k -> new HashMap<>()).put(p.version(), p.handler());
    }
    byNumber.forEach((number, versions) -> programs.put(number, new Versions(
        versions.keySet().stream().mapToInt(Integer::intValue).min().orElseThrow(),
        versions.keySet().stream().mapToInt(Integer::intValue).max().orElseThrow(), Map.copyOf(versions))));
  }

  /** Runs {@code call}; when it ends without a reply, its ticket and scope end here (else when the reply is written). */
  void dispatch(RpcCall call, FlowControl.Ticket ticket, CallScope scope) {
    try {
      Versions v = programs.get(call.getProgram());
      if (v == null) {
        call.failProgramUnavailable();
        return;
      }
      RpcDispatchable h = v.handlers().get(call.getProgramVersion());
      if (h == null) {
        call.failProgramMismatch(v.low(), v.high());
        return;
      }
      h.dispatchOncRpcCall(call);
    } catch (AuthRefused e) {
      LOG.log(System.Logger.Level.DEBUG, "refused " + call + ": " + e.getMessage());
      call.reject(org.dcache.oncrpc4j.rpc.RpcRejectStatus.AUTH_ERROR, new org.dcache.oncrpc4j.rpc.RpcAuthError(e.stat()));
    } catch (XdrException e) {
      LOG.log(System.Logger.Level.DEBUG, "garbage arguments in " + call + ": " + e.getMessage());
      call.failRpcGarbage();
    } catch (RpcException e) {
      call.reject(e.getStatus(), e.getRpcReply());
    } catch (OncRpcException e) {
      call.failRpcGarbage();
    } catch (IOException e) {
      call.failRpcGarbage(); // oncrpc4j's decoders report truncated input as IOException
    } catch (Throwable e) {
      LOG.log(System.Logger.Level.ERROR, "failed to serve " + call, e);
      call.failRpcSystem();
    } finally {
      if (!ticket.isReplySent()) {
        try {
          scope.end();
        } finally {
          ticket.release();
        }
      }
    }
  }
}
