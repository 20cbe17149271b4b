package io.ossgw.fuse;

/**
 * What the kernel and libfuse agreed on at FUSE {@code INIT}, reported by the binding once the session is live.
 *
 * @param protoMajor FUSE protocol major version (7)
 * @param protoMinor FUSE protocol minor version as negotiated by the library (libfuse 2.9 speaks up to 7.19)
 * @param maxWrite largest WRITE request in bytes (131072 with {@code big_writes} on libfuse2, 4096 without)
 * @param maxReadahead kernel readahead limit in bytes
 */
public record FuseConnection(int protoMajor, int protoMinor, int maxWrite, int maxReadahead) {}
