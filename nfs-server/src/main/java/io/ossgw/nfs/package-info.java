/**
 * The NFS front end: an NFSv3 and MOUNT v3 server (RFC 1813) and an NFSv4.1 server (RFC 8881) over the engine's
 * {@link io.ossgw.core.vfs.VirtualFileSystem}, on oncrpc4j-core and Grizzly. {@link io.ossgw.nfs.NfsServer} is the
 * entry point; an {@link io.ossgw.nfs.export.Export} describes what is served to whom.
 *
 * <p>Packages: {@code xdr} the RFC 1813 types with bounded decoding; {@code rpc} the RPC server (record limits, header
 * checks, in-flight caps, virtual-thread workers, duplicate-request cache, optional rpcbind); {@code handle} the
 * persistent fileid table and the handle format; {@code export} and {@code auth} the export rules, squashing and
 * permission checks; {@code v3} the NFS procedures; {@code mount} the MOUNT procedures; {@code nlm} byte-range
 * locks (NLM v4, NSM); {@code v4} NFSv4.1 (COMPOUND, one class per operation, sessions, open and lock state, grace),
 * served with {@link io.ossgw.nfs.NfsServerBuilder#nfsV41}; {@code fs} what v3 and v4.1 share (open handles, the
 * write verifier, directory cursors).
 * SEMANTICS.md (section NFS) is the contract.
 */
package io.ossgw.nfs;
