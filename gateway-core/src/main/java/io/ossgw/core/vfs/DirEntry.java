package io.ossgw.core.vfs;

/**
 * One entry of a directory listing, with its attributes (filled from ListObjectsV2, not from a HEAD per entry).
 *
 * @param name the entry's name (one path component, no slash)
 */
public record DirEntry(String name, FileAttr attr) {}
