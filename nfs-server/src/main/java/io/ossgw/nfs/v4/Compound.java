package io.ossgw.nfs.v4;

import io.ossgw.nfs.rpc.BufferCrc;
import io.ossgw.nfs.v4.state.ClientTable;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.COMPOUND4res;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.nfs_resop4;
import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.Xdrs;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.nio.ByteBuffer;
import java.util.function.IntFunction;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.glassfish.grizzly.Buffer;

/**
 * The NFSv4.1 COMPOUND procedure (RFC 8881 §16.2): reads the header, then reads and runs one operation at a time,
 * stopping at the first that fails; the reply holds a result per operation run and the last status.
 *
 * <p>Rules applied before an operation runs, in this order: minor version other than 1 gives
 * NFS4ERR_MINOR_VERS_MISMATCH with no results (so a Linux client settles on 4.1); more operations than
 * {@link io.ossgw.nfs.v4.state.V4Limits#maxCompoundOps} gives NFS4ERR_TOO_MANY_OPS on the first (nothing else is
 * read, so a huge count costs nothing); an operation number outside 3..58 is NFS4ERR_OP_ILLEGAL (reported as
 * OP_ILLEGAL); the first operation must be SEQUENCE, or EXCHANGE_ID, CREATE_SESSION, DESTROY_SESSION,
 * DESTROY_CLIENTID or BIND_CONN_TO_SESSION alone (NFS4ERR_NOT_ONLY_OP if not alone, NFS4ERR_OP_NOT_IN_SESSION for any
 * other); SEQUENCE later than first is NFS4ERR_SEQUENCE_POS; a legal operation not offered is NFS4ERR_NOTSUPP;
 * arguments that do not decode are NFS4ERR_BADXDR. Only a header that does not decode (truncated, tag over
 * {@link Nfs4#TAG_LIMIT}) fails the RPC as GARBAGE_ARGS, by the {@link XdrException} thrown.
 *
 * <p>Reply size (RFC 8881 §18.46.3, §15.1.3.8-9): under a session the reply may take ca_maxresponsesize bytes, or
 * with sa_cachethis ca_maxresponsesize_cached ({@link CompoundContext#replyLimit}). Each result is measured as it is
 * added; one that does not fit becomes NFS4ERR_REP_TOO_BIG (NFS4ERR_REP_TOO_BIG_TO_CACHE) and ends the compound. An
 * operation that changes state is not run at all when the largest result it can have does not fit, so what the
 * client is told not to have happened did not; READ shortens itself to fit ({@link ReadOp}).
 *
 * <p>A compound run under a session is encoded once, kept in its slot (if within ca_maxresponsesize_cached, which the
 * session reserved) and sent; a retransmission gets those bytes back. Thread-safe: calls share only the
 * {@link ClientTable}.
 */
public final class Compound {
  private static final System.Logger LOG = System.getLogger(Compound.class.getName());
  private static final io.ossgw.nfs.handle.StoreFailures STORE_FAILURES =
      new io.ossgw.nfs.handle.StoreFailures(System::nanoTime);

  private final ServerState server;
  private final ClientTable clients;
  private final Operation<?>[] ops = new Operation<?>[Nfs4.OP_MAX_V41 + 1];
  /** Operations run (arguments decoded), by operation number; the last slot counts OP_ILLEGAL. */
  private final AtomicLongArray counts = new AtomicLongArray(Nfs4.OP_MAX_V41 + 2);

  /**
   * A dispatcher with only the session machinery (no exports): for tests of COMPOUND, SEQUENCE and the session
   * operations.
   *
   * @param clients the client and session state
   * @param serverOwner this server's identity in EXCHANGE_ID (so_major_id, server scope)
   */
  public Compound(ClientTable clients, String serverOwner) {
    this(new ServerState(clients, null, null, null), serverOwner);
  }

  /**
   * @param server the state every compound shares (clients, exports, handles, locks)
   * @param serverOwner this server's identity in EXCHANGE_ID (so_major_id, server scope)
   */
  public Compound(ServerState server, String serverOwner) {
    this.server = server;
    this.clients = server.clients;
    for (Operation<?> op : Operations.all(serverOwner)) {
      ops[op.op()] = op;
    }
  }

  /**
   * Runs one COMPOUND.
   *
   * @param request the encoded COMPOUND4args (the RPC call's body)
   * @param principal the caller's identity (for AUTH_SYS "sys:UID")
   * @return the COMPOUND4res to send (possibly as cached bytes)
   * @throws XdrException if the header does not decode (GARBAGE_ARGS)
   */
  public XdrType process(byte[] request, String principal) {
    return process(request, new Peer(principal, null, null));
  }

  /**
   * Runs one COMPOUND.
   *
   * @param request the encoded COMPOUND4args (the RPC call's body)
   * @param peer who sent it
   * @return the COMPOUND4res to send (possibly as cached bytes)
   * @throws XdrException if the header does not decode (GARBAGE_ARGS)
   */
  public XdrType process(byte[] request, Peer peer) {
    Xdr x = new Xdr(request);
    x.beginDecoding();
    return process(x, peer, ByteBuffer::allocate);
  }

  /**
   * Runs one COMPOUND read straight from the received record (no copy of the request: WRITE data stays a view of it).
   *
   * @param request positioned at the encoded COMPOUND4args; everything up to its limit is the request
   * @param peer who sent it
   * @param replyBuffers buffers for reply data (READ), of the size asked, position 0
   * @return the COMPOUND4res to send (possibly as cached bytes)
   * @throws XdrException if the header does not decode (GARBAGE_ARGS)
   */
  public XdrType process(Xdr request, Peer peer, IntFunction<ByteBuffer> replyBuffers) {
    long hash = hash(request.asBuffer());
    XdrReader r = new XdrReader(request);
    byte[] tag = r.opaque(Nfs4.TAG_LIMIT);
    int minor = r.int32();
    int numops = r.int32();
    if (minor != 1) {
      return new COMPOUND4res(Nfs4.NFS4ERR_MINOR_VERS_MISMATCH, tag, List.of());
    }
    if (Integer.compareUnsigned(numops, clients.limits().maxCompoundOps()) > 0) {
      int first = r.int32();
      return new COMPOUND4res(Nfs4.NFS4ERR_TOO_MANY_OPS, tag,
          List.of(nfs_resop4.of(legal(first) ? first : Nfs4.OP_ILLEGAL, Nfs4.NFS4ERR_TOO_MANY_OPS)));
    }
    CompoundContext ctx = new CompoundContext(server, peer, hash, numops, replyBuffers);
    // the RPC header, then COMPOUND4res: status, tag, the results' count
    ctx.replyBytes = CompoundContext.RPC_REPLY_HEADER + 4 + 4 + ((tag.length + 3) & ~3) + 4;
    List<nfs_resop4> results = new ArrayList<>(numops);
    int status = Nfs4.NFS4_OK;
    COMPOUND4res res;
    try {
      for (int i = 0; i < numops && status == Nfs4.NFS4_OK; i++) {
        ctx.index = i;
        nfs_resop4 one = step(ctx, i, r);
        if (ctx.replay != null) {
          return new Xdrs.Raw(ctx.replay);
        }
        long size = Xdrs.size(one);
        // a failed result ends the compound: it needs no room for a later one
        if (size > (one.status() == Nfs4.NFS4_OK ? ctx.room() : ctx.replyLimit - ctx.replyBytes)) {
          one = nfs_resop4.of(one.op(), ctx.tooBig);
          size = CompoundContext.ERROR_RESULT;
        }
        ctx.replyBytes += size;
        results.add(one);
        status = one.status();
      }
      res = new COMPOUND4res(status, tag, results);
    } catch (RuntimeException | Error e) {
      if (ctx.session != null) {
        ctx.session.slots().complete(ctx.slotid, null);
      }
      throw e;
    }
    if (ctx.session == null) {
      return res;
    }
    if (ctx.replyBytes - CompoundContext.RPC_REPLY_HEADER
        > Integer.toUnsignedLong(ctx.session.fore().maxresponsesizeCached())) {
      // larger than a slot keeps (a big READ): encoded straight into the reply, never copied for the cache
      ctx.session.slots().complete(ctx.slotid, null);
      return res;
    }
    byte[] bytes = Xdrs.toBytes(res);
    ctx.session.slots().complete(ctx.slotid, bytes);
    return new Xdrs.Raw(bytes);
  }

  /** CRC-32C and length of the bytes from the buffer's position to its limit (the buffer is left as it was). */
  private static long hash(Buffer b) {
    int from = b.position();
    int to = b.limit();
    return ((long) (to - from) << 32) | BufferCrc.of(b, from, to);
  }

  private nfs_resop4 step(CompoundContext ctx, int i, XdrReader r) {
    int opnum;
    try {
      opnum = r.int32();
    } catch (XdrException e) { // fewer operations than announced
      return nfs_resop4.of(Nfs4.OP_ILLEGAL, Nfs4.NFS4ERR_BADXDR);
    }
    if (!legal(opnum)) {
      counts.incrementAndGet(Nfs4.OP_MAX_V41 + 1);
      return nfs_resop4.of(Nfs4.OP_ILLEGAL, Nfs4.NFS4ERR_OP_ILLEGAL);
    }
    counts.incrementAndGet(opnum);
    if (i == 0 && opnum != Nfs4.OP_SEQUENCE) {
      if (!sessionless(opnum)) {
        return nfs_resop4.of(opnum, Nfs4.NFS4ERR_OP_NOT_IN_SESSION);
      }
      if (ctx.numops != 1) {
        return nfs_resop4.of(opnum, Nfs4.NFS4ERR_NOT_ONLY_OP);
      }
    } else if (i > 0 && opnum == Nfs4.OP_SEQUENCE) {
      return nfs_resop4.of(opnum, Nfs4.NFS4ERR_SEQUENCE_POS);
    }
    Operation<?> op = ops[opnum];
    if (op == null) {
      return nfs_resop4.of(opnum, Nfs4.NFS4ERR_NOTSUPP);
    }
    int bound = changingResultBound(opnum);
    if (bound > 0 && CompoundContext.ERROR_RESULT + bound > ctx.room()) {
      return nfs_resop4.of(opnum, ctx.tooBig); // not run: its result might not fit
    }
    return run(op, ctx, r);
  }

  /**
   * The largest resok body of an operation that changes state (bytes), 0 for the others (whose results are measured
   * after they ran, and dropped if too big).
   */
  static int changingResultBound(int opnum) {
    return switch (opnum) {
      // LOCK4denied: offset, length, type, lock_owner4 (clientid and an owner of up to NFS4_OPAQUE_LIMIT bytes)
      case Nfs4.OP_LOCK -> 8 + 8 + 4 + 8 + 4 + 1024;
      // stateid, change_info4, rflags, attrset (a bitmap of up to 3 words), open_delegation4 (NONE_EXT with a reason)
      case Nfs4.OP_OPEN -> 16 + 20 + 4 + 16 + 12;
      case Nfs4.OP_CREATE, Nfs4.OP_RENAME -> 2 * 20 + 16; // change_info4 (two for RENAME), attrset
      case Nfs4.OP_REMOVE, Nfs4.OP_LINK -> 20; // change_info4
      case Nfs4.OP_WRITE -> 4 + 4 + 8; // count, committed, writeverf
      case Nfs4.OP_SETATTR -> 16; // attrsset
      case Nfs4.OP_CLOSE, Nfs4.OP_OPEN_DOWNGRADE, Nfs4.OP_LOCKU -> 16; // a stateid
      case Nfs4.OP_COMMIT -> 8; // writeverf
      case Nfs4.OP_FREE_STATEID, Nfs4.OP_RECLAIM_COMPLETE, Nfs4.OP_DESTROY_SESSION, Nfs4.OP_DESTROY_CLIENTID -> 4;
      default -> 0;
    };
  }

  /**
   * How many times an operation was asked for (including the ones refused by position, NOTSUPP or BADXDR), for
   * metrics.
   *
   * @param opnum an nfs_opnum4; {@link Nfs4#OP_ILLEGAL} counts every illegal number
   */
  public long count(int opnum) {
    if (opnum == Nfs4.OP_ILLEGAL) {
      return counts.get(Nfs4.OP_MAX_V41 + 1);
    }
    return legal(opnum) ? counts.get(opnum) : 0;
  }

  /** Runs of one operation whose object keeps being renamed under it ({@link V4Moved}): then NFS4ERR_STALE. */
  private static final int MOVED_RUNS = 3;

  private static <A> nfs_resop4 run(Operation<A> op, CompoundContext ctx, XdrReader r) {
    A args;
    try {
      args = op.decode(r);
    } catch (XdrException e) {
      return nfs_resop4.of(op.op(), Nfs4.NFS4ERR_BADXDR);
    }
    try {
      for (int run = 1; ; run++) {
        try {
          return new nfs_resop4(op.op(), Nfs4.NFS4_OK, op.run(ctx, args));
        } catch (V4Moved m) {
          // a RENAME moved the object under its filehandle: run again on the new path, unless it keeps moving
          if (run == MOVED_RUNS || !ctx.moved(m.was, m.now)) {
            return nfs_resop4.of(op.op(), Nfs4.NFS4ERR_STALE);
          }
        }
      }
    } catch (Nfs4Exception e) {
      return new nfs_resop4(op.op(), e.status(), e.body());
    } catch (io.ossgw.core.cluster.ClusterStoreException e) {
      // the shared handle table could not answer: DELAY (retry), NOSPC or IO, never a guessed handle
      int status = io.ossgw.nfs.handle.StoreFailures.nfs4Status(e);
      STORE_FAILURES.log("NFSv4 operation " + op.op(), e, "nfsstat4 " + status);
      return nfs_resop4.of(op.op(), status);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "NFSv4 operation " + op.op() + " failed", e);
      return nfs_resop4.of(op.op(), Nfs4.NFS4ERR_SERVERFAULT);
    }
  }

  /** Operation numbers of minor version 1 (RFC 8881 §16.2.1); 0-2 and 59+ are illegal here. */
  private static boolean legal(int opnum) {
    return opnum >= Nfs4.OP_ACCESS && opnum <= Nfs4.OP_MAX_V41;
  }

  /** Operations allowed as the sole operation of a compound without SEQUENCE (RFC 8881 §2.10.6.3, §18.x.3). */
  private static boolean sessionless(int opnum) {
    return opnum == Nfs4.OP_EXCHANGE_ID || opnum == Nfs4.OP_CREATE_SESSION || opnum == Nfs4.OP_DESTROY_SESSION
        || opnum == Nfs4.OP_DESTROY_CLIENTID || opnum == Nfs4.OP_BIND_CONN_TO_SESSION;
  }
}
