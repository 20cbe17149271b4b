package io.ossgw.nfs;

import io.ossgw.nfs.xdr.*;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.dcache.oncrpc4j.rpc.OncRpcClient;
import org.dcache.oncrpc4j.rpc.RpcAuth;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeUnix;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcTransport;
import org.dcache.oncrpc4j.rpc.net.IpProtocolType;
import org.dcache.oncrpc4j.xdr.XdrVoid;

/** A small NFSv3/MOUNTv3 client on oncrpc4j's RPC client and this module's XDR types (tests only). */
final class NfsClient implements AutoCloseable {
  private final OncRpcClient client;
  private final RpcTransport transport;
  private RpcAuth auth;

  NfsClient(int port, int uid, int gid) {
    this.client = new OncRpcClient(InetAddress.getLoopbackAddress(), IpProtocolType.TCP, port);
    try {
      this.transport = client.connect(10, TimeUnit.SECONDS);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    as(uid, gid);
  }

  /** Later calls use AUTH_SYS with these ids. */
  NfsClient as(int uid, int gid, int... groups) {
    this.auth = new RpcAuthTypeUnix(uid, gid, groups, 0, "test-client");
    return this;
  }

  /** Later calls use AUTH_NONE. */
  NfsClient asNone() {
    this.auth = new org.dcache.oncrpc4j.rpc.RpcAuthTypeNone();
    return this;
  }

  <T> T call(int prog, int proc, XdrType args, Function<XdrReader, T> decode) {
    return call(prog, Nfs3.VERSION, proc, args, decode);
  }

  /** A call of any program version; throws IllegalStateException wrapping the RPC error if there is one. */
  <T> T call(int prog, int vers, int proc, XdrType args, Function<XdrReader, T> decode) {
    RpcCall call = new RpcCall(prog, vers, auth, transport);
    Xdrs.Decoder<T> res = Xdrs.decoder(decode);
    try {
      call.call(proc, args == null ? XdrVoid.XDR_VOID : Xdrs.encoder(args), res, 30, TimeUnit.SECONDS, auth);
    } catch (Exception e) {
      throw new IllegalStateException("RPC " + prog + "/" + proc + " failed: " + e, e);
    }
    return res.value();
  }

  <T> T nfs(int proc, XdrType args, Function<XdrReader, T> decode) {
    return call(Nfs3.NFS_PROGRAM, proc, args, decode);
  }

  /** RPC call of any program/version with no arguments and no result (NULL); throws the RPC error if any. */
  void ping(int prog, int vers) throws Exception {
    RpcCall call = new RpcCall(prog, vers, auth, transport);
    call.call(0, XdrVoid.XDR_VOID, XdrVoid.XDR_VOID, 10, TimeUnit.SECONDS, auth);
  }

  /** Like {@link #ping} with a procedure number. */
  void callVoid(int prog, int vers, int proc) throws Exception {
    RpcCall call = new RpcCall(prog, vers, auth, transport);
    call.call(proc, XdrVoid.XDR_VOID, XdrVoid.XDR_VOID, 10, TimeUnit.SECONDS, auth);
  }

  mountres3 mnt(String path) {
    return call(Nfs3.MOUNT_PROGRAM, Nfs3.MOUNTPROC3_MNT, w -> dirpath.encode(w, path), mountres3::decode);
  }

  /** The export's (or sub-directory's) root handle; fails unless MNT3_OK. */
  nfs_fh3 root(String path) {
    mountres3 r = mnt(path);
    if (r.status() != Nfs3.MNT3_OK) {
      throw new IllegalStateException("MNT " + path + ": " + r.status());
    }
    return r.fhandle();
  }

  GETATTR3res getattr(nfs_fh3 fh) {
    return nfs(Nfs3.NFSPROC3_GETATTR, new GETATTR3args(fh), GETATTR3res::decode);
  }

  LOOKUP3res lookup(nfs_fh3 dir, String name) {
    return nfs(Nfs3.NFSPROC3_LOOKUP, new LOOKUP3args(new diropargs3(dir, name)), LOOKUP3res::decode);
  }

  /** Looks a slash-separated path up from {@code dir}; fails on any error. */
  nfs_fh3 walk(nfs_fh3 dir, String path) {
    nfs_fh3 fh = dir;
    for (String c : path.split("/")) {
      if (c.isEmpty()) {
        continue;
      }
      LOOKUP3res r = lookup(fh, c);
      if (r.status() != nfsstat3.NFS3_OK) {
        throw new IllegalStateException("LOOKUP " + c + ": " + nfsstat3.name(r.status()));
      }
      fh = r.object();
    }
    return fh;
  }

  CREATE3res create(nfs_fh3 dir, String name, int mode) {
    sattr3 s = new sattr3(mode, null, null, null, Nfs3.DONT_CHANGE, null, Nfs3.DONT_CHANGE, null);
    return create(dir, name, new createhow3(Nfs3.UNCHECKED, s, null));
  }

  CREATE3res create(nfs_fh3 dir, String name, createhow3 how) {
    return nfs(Nfs3.NFSPROC3_CREATE, new CREATE3args(new diropargs3(dir, name), how), CREATE3res::decode);
  }

  WRITE3res write(nfs_fh3 fh, long offset, byte[] data, int stable) {
    return nfs(Nfs3.NFSPROC3_WRITE, new WRITE3args(fh, offset, data.length, stable, ByteBuffer.wrap(data)),
        WRITE3res::decode);
  }

  READ3res read(nfs_fh3 fh, long offset, int count) {
    return nfs(Nfs3.NFSPROC3_READ, new READ3args(fh, offset, count), READ3res::decode);
  }

  /** Reads a whole file with READs of {@code chunk} bytes. */
  byte[] readAll(nfs_fh3 fh, int chunk) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    long off = 0;
    while (true) {
      READ3res r = read(fh, off, chunk);
      if (r.status() != nfsstat3.NFS3_OK) {
        throw new IllegalStateException("READ: " + nfsstat3.name(r.status()));
      }
      byte[] b = new byte[r.count()];
      r.data().get(b);
      out.writeBytes(b);
      off += b.length;
      if (r.eof() || b.length == 0) {
        return out.toByteArray();
      }
    }
  }

  COMMIT3res commit(nfs_fh3 fh) {
    return nfs(Nfs3.NFSPROC3_COMMIT, new COMMIT3args(fh, 0, 0), COMMIT3res::decode);
  }

  SETATTR3res setattr(nfs_fh3 fh, sattr3 s) {
    return nfs(Nfs3.NFSPROC3_SETATTR, new SETATTR3args(fh, s, null), SETATTR3res::decode);
  }

  MKDIR3res mkdir(nfs_fh3 dir, String name, int mode) {
    sattr3 s = new sattr3(mode, null, null, null, Nfs3.DONT_CHANGE, null, Nfs3.DONT_CHANGE, null);
    return nfs(Nfs3.NFSPROC3_MKDIR, new MKDIR3args(new diropargs3(dir, name), s), MKDIR3res::decode);
  }

  REMOVE3res remove(nfs_fh3 dir, String name) {
    return nfs(Nfs3.NFSPROC3_REMOVE, new REMOVE3args(new diropargs3(dir, name)), REMOVE3res::decode);
  }

  RMDIR3res rmdir(nfs_fh3 dir, String name) {
    return nfs(Nfs3.NFSPROC3_RMDIR, new RMDIR3args(new diropargs3(dir, name)), RMDIR3res::decode);
  }

  RENAME3res rename(nfs_fh3 fromDir, String from, nfs_fh3 toDir, String to) {
    return nfs(Nfs3.NFSPROC3_RENAME, new RENAME3args(new diropargs3(fromDir, from), new diropargs3(toDir, to)),
        RENAME3res::decode);
  }

  READDIR3res readdir(nfs_fh3 dir, long cookie, long verf, int count) {
    return nfs(Nfs3.NFSPROC3_READDIR, new READDIR3args(dir, cookie, verf, count), READDIR3res::decode);
  }

  READDIRPLUS3res readdirplus(nfs_fh3 dir, long cookie, long verf, int maxcount) {
    return nfs(Nfs3.NFSPROC3_READDIRPLUS, new READDIRPLUS3args(dir, cookie, verf, maxcount / 4, maxcount),
        READDIRPLUS3res::decode);
  }

  ACCESS3res access(nfs_fh3 fh, int bits) {
    return nfs(Nfs3.NFSPROC3_ACCESS, new ACCESS3args(fh, bits), ACCESS3res::decode);
  }

  /** Creates a file, writes it UNSTABLE in 256 KiB pieces, COMMITs and returns its handle. */
  nfs_fh3 put(nfs_fh3 dir, String name, byte[] data) {
    CREATE3res c = create(dir, name, 0644);
    if (c.status() != nfsstat3.NFS3_OK) {
      throw new IllegalStateException("CREATE " + name + ": " + nfsstat3.name(c.status()));
    }
    for (int off = 0; off < data.length; off += 256 * 1024) {
      byte[] piece = java.util.Arrays.copyOfRange(data, off, Math.min(data.length, off + 256 * 1024));
      WRITE3res w = write(c.obj(), off, piece, Nfs3.UNSTABLE);
      if (w.status() != nfsstat3.NFS3_OK) {
        throw new IllegalStateException("WRITE: " + nfsstat3.name(w.status()));
      }
    }
    COMMIT3res r = commit(c.obj());
    if (r.status() != nfsstat3.NFS3_OK) {
      throw new IllegalStateException("COMMIT: " + nfsstat3.name(r.status()));
    }
    return c.obj();
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    try {
      client.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
