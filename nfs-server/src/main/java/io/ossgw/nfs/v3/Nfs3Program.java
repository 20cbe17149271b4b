package io.ossgw.nfs.v3;

import io.ossgw.nfs.export.Exports;
import io.ossgw.nfs.fs.OpenFiles;
import io.ossgw.nfs.fs.WriteVerifier;
import io.ossgw.core.inode.InodeTable;
import io.ossgw.nfs.rpc.ReplyCache;
import io.ossgw.nfs.xdr.*;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcDispatchable;

/**
 * NFS version 3 (program 100003, RFC 1813): the 22 procedures over the exports' VFSs.
 *
 * <p>Each procedure decodes its arguments with bounded XDR, runs on the caller's (virtual) worker thread and replies
 * with its RFC result; failures are the procedure's resfail with an nfsstat3, never an RPC error, except undecodable
 * arguments (GARBAGE_ARGS) and unknown procedure numbers (PROC_UNAVAIL). Non-idempotent procedures (SETATTR, WRITE,
 * CREATE, MKDIR, SYMLINK, MKNOD, REMOVE, RMDIR, RENAME, LINK, COMMIT) go through the duplicate-request cache.
 */
public final class Nfs3Program implements RpcDispatchable, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(Nfs3Program.class.getName());
  private final io.ossgw.nfs.handle.StoreFailures storeFailures = new io.ossgw.nfs.handle.StoreFailures(System::nanoTime);
  /** How long a retransmission waits for the original call to finish. */
  private static final long DUPLICATE_WAIT_SECONDS = 120;

  private record Proc<A>(Function<XdrReader, A> decode, BiFunction<Call, A, XdrType> run, IntFunction<XdrType> fail,
      boolean cached) {}

  private final NfsState state;
  /** Whether {@link #close} releases the open files (they are this program's own, not shared with NFSv4.1). */
  private final boolean ownsOpenFiles;
  private final ReplyCache replies;
  private final Proc<?>[] procs = new Proc<?>[22];
  private final Nfs3Stats stats = new Nfs3Stats();

  /**
   * @param exports the exports served
   * @param table the persistent handle table (owned by the caller)
   * @param limits sizes and timeouts
   * @param replies the duplicate-request cache
   */
  public Nfs3Program(Exports exports, InodeTable table, Nfs3Limits limits, ReplyCache replies) {
    this(exports, table, limits, replies, null, new WriteVerifier());
  }

  /**
   * @param exports the exports served
   * @param table the persistent handle table (owned by the caller)
   * @param limits sizes and timeouts
   * @param replies the duplicate-request cache
   * @param open the open handles shared with NFSv4.1 (owned and closed by the caller), or null for this program's own
   *     (from {@code limits}, closed by {@link #close})
   * @param verifier the write verifier (shared with NFSv4.1); rotated when the open files give up data
   */
  public Nfs3Program(Exports exports, InodeTable table, Nfs3Limits limits, ReplyCache replies, OpenFiles open,
      WriteVerifier verifier) {
    this.ownsOpenFiles = open == null;
    OpenFiles files = open != null ? open
        : new OpenFiles(limits.openIdle(), limits.maxFailedReleases(), verifier::rotate);
    this.state = new NfsState(exports, table, limits, files, verifier);
    this.replies = replies;
    AttrProcs attr = new AttrProcs(state);
    LookupProcs lookup = new LookupProcs(state);
    DataProcs data = new DataProcs(state);
    CreateProcs create = new CreateProcs(state);
    RemoveProcs remove = new RemoveProcs(state);
    DirProcs dir = new DirProcs(state);
    reg(Nfs3.NFSPROC3_GETATTR, GETATTR3args::decode, attr::getattr, GETATTR3res::fail, false);
    reg(Nfs3.NFSPROC3_SETATTR, SETATTR3args::decode, attr::setattr, st -> new SETATTR3res(st, wcc_data.EMPTY), true);
    reg(Nfs3.NFSPROC3_LOOKUP, LOOKUP3args::decode, lookup::lookup, st -> LOOKUP3res.fail(st, null), false);
    reg(Nfs3.NFSPROC3_ACCESS, ACCESS3args::decode, attr::access, st -> ACCESS3res.fail(st, null), false);
    reg(Nfs3.NFSPROC3_READLINK, READLINK3args::decode, lookup::readlink, st -> READLINK3res.fail(st, null), false);
    reg(Nfs3.NFSPROC3_READ, READ3args::decode, data::read, st -> READ3res.fail(st, null), false);
    reg(Nfs3.NFSPROC3_WRITE, WRITE3args::decode, data::write, st -> WRITE3res.fail(st, wcc_data.EMPTY), true);
    reg(Nfs3.NFSPROC3_CREATE, CREATE3args::decode, create::create, st -> CREATE3res.fail(st, wcc_data.EMPTY), true);
    reg(Nfs3.NFSPROC3_MKDIR, MKDIR3args::decode, create::mkdir, st -> MKDIR3res.fail(st, wcc_data.EMPTY), true);
    reg(Nfs3.NFSPROC3_SYMLINK, SYMLINK3args::decode, create::symlink, st -> SYMLINK3res.fail(st, wcc_data.EMPTY),
        true);
    reg(Nfs3.NFSPROC3_MKNOD, MKNOD3args::decode, create::mknod, st -> MKNOD3res.fail(st, wcc_data.EMPTY), true);
    reg(Nfs3.NFSPROC3_REMOVE, REMOVE3args::decode, remove::remove, st -> new REMOVE3res(st, wcc_data.EMPTY), true);
    reg(Nfs3.NFSPROC3_RMDIR, RMDIR3args::decode, remove::rmdir, st -> new RMDIR3res(st, wcc_data.EMPTY), true);
    reg(Nfs3.NFSPROC3_RENAME, RENAME3args::decode, remove::rename,
        st -> new RENAME3res(st, wcc_data.EMPTY, wcc_data.EMPTY), true);
    reg(Nfs3.NFSPROC3_LINK, LINK3args::decode, create::link, st -> new LINK3res(st, null, wcc_data.EMPTY), true);
    reg(Nfs3.NFSPROC3_READDIR, READDIR3args::decode, dir::readdir, st -> READDIR3res.fail(st, null), false);
    reg(Nfs3.NFSPROC3_READDIRPLUS, READDIRPLUS3args::decode, dir::readdirplus,
        st -> READDIRPLUS3res.fail(st, null), false);
    reg(Nfs3.NFSPROC3_FSSTAT, FSSTAT3args::decode, attr::fsstat, st -> FSSTAT3res.fail(st, null), false);
    reg(Nfs3.NFSPROC3_FSINFO, FSINFO3args::decode, attr::fsinfo, st -> FSINFO3res.fail(st, null), false);
    reg(Nfs3.NFSPROC3_PATHCONF, PATHCONF3args::decode, attr::pathconf, st -> PATHCONF3res.fail(st, null), false);
    reg(Nfs3.NFSPROC3_COMMIT, COMMIT3args::decode, data::commit, st -> COMMIT3res.fail(st, wcc_data.EMPTY), true);
  }

  private <A> void reg(int proc, Function<XdrReader, A> decode, BiFunction<Call, A, XdrType> run,
      IntFunction<XdrType> fail, boolean cached) {
    procs[proc] = new Proc<>(decode, run, fail, cached);
  }

  @Override
  public void dispatchOncRpcCall(RpcCall call) throws OncRpcException, IOException {
    int p = call.getProcedure();
    if (p == Nfs3.NFSPROC3_NULL) {
      call.retrieveCall(org.dcache.oncrpc4j.xdr.XdrVoid.XDR_VOID);
      call.reply(org.dcache.oncrpc4j.xdr.XdrVoid.XDR_VOID);
      return;
    }
    if (p < 0 || p >= procs.length || procs[p] == null) {
      call.failProcedureUnavailable();
      return;
    }
    stats.call(p);
    serve(call, procs[p]);
  }

  private <A> void serve(RpcCall call, Proc<A> proc) throws OncRpcException, IOException {
    ReplyCache.Key key = proc.cached() ? ReplyCache.keyOf(call) : null;
    Xdrs.Decoder<A> args = Xdrs.decoder(proc.decode());
    XdrType result;
    try {
      call.retrieveCall(args);
    } catch (XdrNameException e) {
      call.reply(Xdrs.encoder(proc.fail().apply(nfsstat3.NFS3ERR_INVAL)));
      return;
    }
    if (args.value() instanceof WRITE3args w) {
      stats.write(w.stable());
    }
    if (key == null) {
      call.reply(Xdrs.encoder(run(call, proc, args.value())));
      return;
    }
    CompletableFuture<byte[]> mine = new CompletableFuture<>();
    CompletableFuture<byte[]> first = replies.begin(key, mine);
    if (first != null) {
      replay(call, first);
      return;
    }
    try {
      result = run(call, proc, args.value());
      byte[] bytes = Xdrs.toBytes(result);
      mine.complete(bytes);
      call.reply(Xdrs.encoder(new Xdrs.Raw(bytes)));
    } catch (RuntimeException | Error e) {
      replies.forget(key);
      mine.completeExceptionally(e);
      throw e;
    }
  }

  /** Answers a retransmission with the first call's reply (waiting for it if still running). */
  private static void replay(RpcCall call, CompletableFuture<byte[]> first) {
    try {
      byte[] bytes = first.get(DUPLICATE_WAIT_SECONDS, TimeUnit.SECONDS);
      call.reply(Xdrs.encoder(new Xdrs.Raw(bytes)));
    } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
      LOG.log(System.Logger.Level.DEBUG, "dropping a retransmission whose original failed or hangs: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Runs of one call when its object keeps being renamed under it ({@link NfsState.Moved}): then STALE. */
  private static final int MOVED_RUNS = 3;

  private <A> XdrType run(RpcCall call, Proc<A> proc, A args) {
    try {
      for (int run = 1; ; run++) {
        try {
          return proc.run().apply(new Call(call), args);
        } catch (NfsState.Moved e) {
          if (run == MOVED_RUNS) {
            return proc.fail().apply(nfsstat3.NFS3ERR_STALE);
          }
        }
      }
    } catch (NfsError e) {
      return proc.fail().apply(e.status);
    } catch (io.ossgw.core.vfs.FsException e) {
      return proc.fail().apply(Status.of(e.errno()));
    } catch (io.ossgw.nfs.rpc.AuthRefused e) {
      throw e; // an RPC-level refusal, answered by the dispatcher
    } catch (io.ossgw.core.cluster.ClusterStoreException e) {
      // the shared handle table could not answer: JUKEBOX (retry), NOSPC or IO, never a guessed handle
      int status = io.ossgw.nfs.handle.StoreFailures.nfs3Status(e);
      storeFailures.log("NFS procedure " + call.getProcedure(), e, nfsstat3.name(status));
      return proc.fail().apply(status);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "NFS procedure " + call.getProcedure() + " failed", e);
      return proc.fail().apply(nfsstat3.NFS3ERR_SERVERFAULT);
    } finally {
      state.table.commit();
    }
  }

  /** Call counters. */
  public Nfs3Stats stats() {
    return stats;
  }

  /** Open files now (tests, metrics). */
  public int openFiles() {
    return state.open.size();
  }

  /**
   * Releases every open file, uploading unsaved data, if the open files are this program's own (shared ones are
   * closed by their owner). The VFSs and the table stay open (their owners close them).
   */
  @Override
  public void close() {
    if (ownsOpenFiles) {
      state.open.close();
    }
  }
}
