package io.ossgw.app.serve;

import io.ossgw.app.mount.MountHandle;
import io.ossgw.app.mount.MountPlan;
import io.ossgw.core.engine.Engine;

/**
 * One configured mount while {@code serve} runs.
 *
 * @param name the {@code ossgw.mounts.<name>} label
 * @param plan the resolved plan
 * @param engine the engine it shares with every mount of the same bucket/prefix
 * @param handle the FUSE mount
 */
public record ServedMount(String name, MountPlan plan, Engine engine, MountHandle handle) {}
