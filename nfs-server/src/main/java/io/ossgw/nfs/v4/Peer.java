package io.ossgw.nfs.v4;

import java.net.InetSocketAddress;
import org.dcache.oncrpc4j.rpc.RpcAuth;

/**
 * Who sent a COMPOUND: the RPC credential (for squashing and permission checks as in v3, {@link
 * io.ossgw.nfs.auth.Identities}), the client's address (for the exports' CIDR rules) and the principal string
 * EXCHANGE_ID and CREATE_SESSION compare (RFC 8881 §2.4.3).
 *
 * @param principal e.g. "sys:1000" for AUTH_SYS uid 1000
 * @param credential the RPC credential; null only in tests of the session machinery
 * @param address the client's socket address; null only in tests of the session machinery
 */
public record Peer(String principal, RpcAuth credential, InetSocketAddress address) {}
