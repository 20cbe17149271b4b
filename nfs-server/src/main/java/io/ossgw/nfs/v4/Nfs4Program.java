package io.ossgw.nfs.v4;

import io.ossgw.nfs.rpc.ReplyMemory;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.Xdrs;
import java.io.IOException;
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
 * NFS version 4 (program 100003, RFC 8881 §16): NULL and COMPOUND, run by {@link Compound}. The COMPOUND is read
 * straight from the received record, never copied (WRITE data is handed to the engine as a view of it; the slot cache
 * hashes the record's bytes where they are), and READ data is read into pooled reply buffers
 * ({@link ReplyMemory#forReply}). An undecodable COMPOUND header is GARBAGE_ARGS, other procedures PROC_UNAVAIL. The
 * principal is "sys:UID" for AUTH_SYS and "flavor:N" otherwise.
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
        Body body = new Body();
        XdrType reply;
        try {
          call.retrieveCall(body); // rewinds the record afterwards: body remembers where the COMPOUND starts
          if (body.xdr.asBuffer().limit() - body.start > maxRequest) {
            throw new XdrException("COMPOUND over " + maxRequest + " bytes");
          }
          body.xdr.asBuffer().position(body.start);
          reply = compound.process(body.xdr, new Peer(principal(call.getCredential()), call.getCredential(),
              call.getTransport().getRemoteSocketAddress()), size -> ReplyMemory.forReply(call, size));
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

  /** Where the call body (the COMPOUND4args) starts in the record; nothing is read. */
  private static final class Body implements XdrAble {
    Xdr xdr;
    int start;

    @Override
    public void xdrDecode(XdrDecodingStream in) {
      if (!(in instanceof Xdr x)) {
        throw new XdrException("not an oncrpc4j Xdr stream");
      }
      xdr = x;
      start = x.asBuffer().position();
    }

    @Override
    public void xdrEncode(XdrEncodingStream out) {
      throw new UnsupportedOperationException("decode only");
    }
  }
}
