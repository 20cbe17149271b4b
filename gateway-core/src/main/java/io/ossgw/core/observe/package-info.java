/**
 * The engine's observer SPI: what the engine reports for metrics, without depending on a metrics library
 * (gateway-app binds it to Micrometer in {@code io.ossgw.app.metrics}).
 *
 * <ul>
 *   <li>{@link io.ossgw.core.observe.EngineObserver}: OSS request attempts (operation, outcome, latency), retries,
 *       cache hits/misses/evictions;
 *   <li>{@link io.ossgw.core.observe.ObservedObjectStore}: the decorator that times every OSS request attempt;
 *   <li>{@link io.ossgw.core.observe.FrontEndFileSystem}: a VFS view per front end (fuse, nfs, smb) that counts
 *       the bytes it reads and writes;
 *   <li>{@link io.ossgw.core.observe.Observation}: the observer of the engine being built, so caches created inside
 *       it can report without an extra constructor parameter.
 * </ul>
 *
 * Observers are called on I/O paths: implementations must be thread-safe, must not block and must not throw.
 */
package io.ossgw.core.observe;
