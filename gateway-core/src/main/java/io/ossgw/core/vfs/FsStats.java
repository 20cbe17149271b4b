package io.ossgw.core.vfs;

/**
 * statfs figures. OSS has no capacity, so like ossfs the gateway reports a very large, mostly free filesystem.
 *
 * @param blockSize bytes per block ({@code f_bsize})
 * @param totalBlocks {@code f_blocks}
 * @param freeBlocks {@code f_bfree} and {@code f_bavail}
 * @param totalFiles {@code f_files}
 * @param freeFiles {@code f_ffree}
 * @param maxNameLength {@code f_namemax}: 255
 */
public record FsStats(long blockSize, long totalBlocks, long freeBlocks, long totalFiles, long freeFiles, int maxNameLength) {}
