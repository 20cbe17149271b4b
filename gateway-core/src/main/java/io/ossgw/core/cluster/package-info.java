/**
 * More than one gateway on one bucket (issue 23): what the gateways of a cluster share through a distributed store
 * (Valkey or Redis; the implementations are in gateway-app), behind interfaces whose single-process forms keep a lone
 * gateway exactly as before.
 *
 * <ul>
 *   <li>{@link io.ossgw.core.cluster.Lease} over a {@link io.ossgw.core.cluster.LeaseStore}: who serves
 *       (active/standby), with a fencing token per acquisition and local-clock expiry, so a cut-off holder stops
 *       before another can start; {@link io.ossgw.core.cluster.Fence#ALWAYS} for a single gateway.
 *   <li>{@link io.ossgw.core.cluster.FencedObjectStore}: no OSS write without the lease.
 *   <li>{@link io.ossgw.core.cluster.InvalidationChannel}, {@link io.ossgw.core.cluster.PublishingFileSystem}: a
 *       change through one gateway drops the others' cached attributes and listings (active mode).
 *   <li>{@link io.ossgw.core.cluster.InodeNumberStore} and {@link io.ossgw.core.cluster.ClientRecordStore}: the seams
 *       of phase 2 (a shared inode table; NFSv4.1 client records that survive a failover).
 * </ul>
 */
package io.ossgw.core.cluster;
