package io.ossgw.nfs.v3;

import java.time.Duration;

/**
 * Sizes and timeouts of the NFS program.
 *
 * @param rtmax largest READ, bytes (FSINFO rtmax = rtpref)
 * @param wtmax largest WRITE, bytes (FSINFO wtmax = wtpref)
 * @param dtpref preferred READDIR size, bytes
 * @param maxReaddirReply largest READDIR/READDIRPLUS reply built, bytes, whatever the client asks
 * @param openIdle idle time after which an open file is released (and its unsaved data uploaded)
 * @param maxFailedReleases failed uploads of an idle file before its data is given up
 * @param cursorBytes heap the READDIR sessions' remembered positions may hold in total, bytes
 * @param cursorIdle lifetime of an unused READDIR session
 */
public record Nfs3Limits(int rtmax, int wtmax, int dtpref, int maxReaddirReply, Duration openIdle, int maxFailedReleases,
    long cursorBytes, Duration cursorIdle) {}
