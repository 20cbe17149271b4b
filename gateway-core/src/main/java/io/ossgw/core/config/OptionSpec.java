package io.ossgw.core.config;

/**
 * One option of the ossfs 1.91.10 option table (reference/ossfs-compat.md §4) as ossgw understands it.
 *
 * @param name the ossfs name (also the Quarkus property name under {@code ossgw.mount.})
 * @param kind engine, FUSE pass-through, accepted no-op, or not implemented
 * @param takesValue {@code name=value} (true) or a bare flag (false)
 * @param defaultValue the default as ossfs writes it (null = none / off)
 * @param unit the unit of the value ("MB", "seconds", "count", "bytes", "path", ...) or "" for flags
 * @param help one line for --help and the README options table
 */
public record OptionSpec(String name, OptionKind kind, boolean takesValue, String defaultValue, String unit, String help) {}
