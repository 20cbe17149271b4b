package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.Xdrs;
import java.io.IOException;
import java.util.Arrays;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.rpc.RpcAuth;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeUnix;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcDispatchable;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;
import org.dcache.oncrpc4j.xdr.XdrVoid;

/**
 * NFS version 4 (program 100003, RFC 8881 §16): NULL and COMPOUND, run by {@link Compound}. The COMPOUND body is
 * copied out of the receive buffer whole (bounded by the RPC record limit) because the slot cache hashes the whole
 * request; a zero-copy path for WRITE data comes with WRITE. An undecodable COMPOUND header is GARBAGE_ARGS, other
 * procedures PROC_UNAVAIL. The principal is "sys:UID" for AUTH_SYS and "flavor:N" otherwise.
 */
public final class Nfs4Program implements RpcDispatchable {
  private final Compound compound;
  private final int maxRequest;

  /**
   * @param compound the dispatcher
   * @param maxRequest the largest COMPOUND body accepted, in bytes (the RPC record limit)
   */
  public Nfs4Program(Compound compound, int maxRequest) {
    this.compound = compound;
    this.maxRequest = maxRequest;
  }

  @Override
  public void dispatchOncRpcCall(RpcCall call) throws OncRpcException, IOException {
    switch (call.getProcedure()) {
      case Nfs4.NFSPROC4_NULL -> {
        call.retrieveCall(XdrVoid.XDR_VOID);
        call.reply(XdrVoid.XDR_VOID);
      }
      case Nfs4.NFSPROC4_COMPOUND -> {
        Body body = new Body(maxRequest);
        XdrType reply;
        try {
          call.retrieveCall(body);
          reply = compound.process(body.bytes, new Peer(principal(call.getCredential()), call.getCredential(),
              call.getTransport().getRemoteSocketAddress()));
        } catch (XdrException e) {
          call.failRpcGarbage();
          return;
        }
        call.reply(Xdrs.encoder(reply));
      }
      default -> call.failProcedureUnavailable();
    }
  }

  /** The identity EXCHANGE_ID and CREATE_SESSION compare (RFC 8881 §2.4.3 "principal"). */
  static String principal(RpcAuth cred) {
    if (cred instanceof RpcAuthTypeUnix unix) {
      return "sys:" + Integer.toUnsignedString(unix.uid());
    }
    return "flavor:" + cred.type();
  }

  /** The rest of the call body as bytes, read four at a time (XDR bodies are whole words) up to a limit. */
  private static final class Body implements XdrAble {
    private final int max;
    byte[] bytes;

    Body(int max) {
      this.max = max;
    }

    @Override
    public void xdrDecode(XdrDecodingStream in) throws OncRpcException, IOException {
      if (!(in instanceof Xdr x)) {
        throw new XdrException("not an oncrpc4j Xdr stream");
      }
      byte[] out = new byte[256];
      int n = 0;
      while (x.hasMoreData()) {
        if (n + 4 > max) {
          throw new XdrException("COMPOUND over " + max + " bytes");
        }
        if (n + 4 > out.length) {
          out = Arrays.copyOf(out, Math.min(max, out.length * 2));
        }
        int v = x.xdrDecodeInt();
        out[n] = (byte) (v >>> 24);
        out[n + 1] = (byte) (v >>> 16);
        out[n + 2] = (byte) (v >>> 8);
        out[n + 3] = (byte) v;
        n += 4;
      }
      bytes = Arrays.copyOf(out, n);
    }

    @Override
    public void xdrEncode(XdrEncodingStream out) {
      throw new UnsupportedOperationException("decode only");
    }
  }
}
