package io.ossgw.app.mount;

import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.fuse.FuseOptions;
import java.nio.file.Path;

/**
 * Everything needed to mount one bucket/prefix, resolved and validated before anything touches the network or the
 * kernel: a bad option or missing credentials fail here.
 *
 * @param source the bucket and prefix
 * @param mountpoint absolute mount point
 * @param options the parsed {@code -o} options
 * @param engine the engine configuration
 * @param fuse the FUSE configuration
 */
public record MountPlan(MountSource source, Path mountpoint, MountOptions options, EngineConfig engine, FuseOptions fuse) {}
