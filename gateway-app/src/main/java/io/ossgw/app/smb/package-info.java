/**
 * SMB shares: Samba's {@code smbd} serving FUSE mounts of the gateway's engines.
 *
 * <p>No SMB2/3 server library exists for the JVM (jfileserver's open edition speaks SMB1 only), so the gateway mounts
 * each share's bucket/prefix with FUSE ({@code allow_other}) under {@code <state-dir>/smb/mnt/<share>} and runs
 * {@code smbd} as a supervised child process on those directories. Everything Samba keeps lives under
 * {@code <state-dir>/smb} (smb.conf, passdb, locks, pid file), nothing in /etc/samba or /var/lib/samba.
 *
 * <ul>
 *   <li>{@link io.ossgw.app.smb.SmbConf} renders smb.conf: SMB2_02..SMB3_11 only, and the share settings an object
 *       store needs (no DOS attributes or EAs in xattrs, no kernel oplocks/share modes, no strict sync);
 *   <li>{@link io.ossgw.app.smb.SmbAccounts} creates the Unix accounts Samba needs and writes the passdb;
 *   <li>{@link io.ossgw.app.smb.SmbdSupervisor} runs smbd in the foreground, forwards its log, restarts it with
 *       bounded exponential backoff ({@link io.ossgw.app.smb.Backoff}) and stops it with SIGTERM, then SIGKILL;
 *   <li>{@link io.ossgw.app.smb.SmbService} puts these together: mount, configure, start; stop, unmount;
 *   <li>{@link io.ossgw.app.smb.SmbPlanner} checks {@code ossgw.smb.*} and {@code ossgw.shares.*}.
 * </ul>
 */
package io.ossgw.app.smb;
