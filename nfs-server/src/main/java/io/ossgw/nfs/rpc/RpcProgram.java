package io.ossgw.nfs.rpc;

import org.dcache.oncrpc4j.rpc.RpcDispatchable;

/**
 * One version of one RPC program served by {@link RpcServer}. Calls to other versions of a registered program are
 * answered PROG_MISMATCH with the lowest and highest registered versions (RFC 5531 §9), so a client asking NFS v4 or
 * MOUNT v1 learns that only 3 is spoken; calls to unregistered programs get PROG_UNAVAIL.
 *
 * @param number program number (100003 NFS, 100005 MOUNT)
 * @param version the version served
 * @param handler runs on a worker (virtual) thread, may block; must reply or fail the call
 */
public record RpcProgram(int number, int version, RpcDispatchable handler) {}
