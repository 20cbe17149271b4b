/**
 * The persistent local data cache of ossfs's {@code use_cache=DIR} (reference/ossfs-compat.md §3.6, §4; SEMANTICS.md
 * "use_cache").
 *
 * <ul>
 *   <li>{@link io.ossgw.core.diskcache.DiskCacheSettings}: {@code use_cache}, {@code ensure_diskfree},
 *       {@code free_space_ratio}, {@code del_cache}, {@code check_cache_dir_exist}, {@code fake_diskfree};
 *   <li>{@link io.ossgw.core.diskcache.DiskCache}: one sparse data file per object plus an MVStore index (ETag, size,
 *       cached ranges, last use) under {@code DIR/<bucket>/<mount id>/}; LRU eviction within the free-space reserve;
 *       kept across restarts;
 *   <li>{@link io.ossgw.core.diskcache.CachingObjectStore}: the {@code ObjectStore} decorator the engine puts in front
 *       of OSS when the cache is on: ETag-pinned ranged GETs are answered from disk when every byte is cached, the
 *       bytes of other GETs are stored, and the gateway's own writes drop the key's entry.
 * </ul>
 *
 * Unlike ossfs, writes are not staged in this directory (they use the {@code tmpdir} spool) and nothing is cached
 * for objects only written, not read.
 */
package io.ossgw.core.diskcache;
