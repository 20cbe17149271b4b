package io.ossgw.app.smb;

import io.ossgw.app.mount.MountHandle;
import io.ossgw.app.mount.Mounter;
import io.ossgw.fuse.StaleMounts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.jboss.logging.Logger;

/**
 * SMB for one gateway: mounts every share with FUSE under {@code <state-dir>/smb/mnt/<share>} ({@code allow_other},
 * read-only for read-only shares), writes smb.conf, creates the users' accounts and passdb entries, and runs smbd
 * under a {@link SmbdSupervisor}. {@link #close} stops smbd first, then unmounts, in that order, so that no client
 * request reaches a mount that is going away.
 */
public final class SmbService implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(SmbService.class);
  /** How long smbd may take to listen after it is started. */
  static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(30);

  /**
   * A share while it is served.
   *
   * @param share its definition
   * @param mountpoint its FUSE mount point
   * @param handle its FUSE mount
   */
  public record Served(SmbShare share, Path mountpoint, MountHandle handle) {}

  private final SmbSettings settings;
  private final SmbLayout layout;
  private final List<Served> served = new java.util.concurrent.CopyOnWriteArrayList<>();
  private SmbdSupervisor supervisor;

  private SmbService(SmbSettings settings) {
    this.settings = settings;
    this.layout = new SmbLayout(settings.stateDir());
  }

  /** {@link #start(SmbSettings, List, Mounter, Backoff)} with smbd's default backoff (1 s doubling to 30 s). */
  public static SmbService start(SmbSettings settings, List<SmbShare> shares, Mounter mounter) {
    return start(settings, shares, mounter, Backoff.smbdDefault());
  }

  /**
   * Mounts the shares, configures Samba and starts smbd; returns once smbd accepts connections.
   *
   * @param settings {@code ossgw.smb.*}, resolved
   * @param shares the shares (at least one)
   * @param mounter the FUSE mounter
   * @param backoff smbd's restart delays
   * @throws SmbException when smbd fails to start, the port is taken, or accounts cannot be set up
   * @throws io.ossgw.fuse.MountException when a share cannot be mounted
   *     (everything started so far is undone before either is thrown)
   */
  public static SmbService start(SmbSettings settings, List<SmbShare> shares, Mounter mounter, Backoff backoff) {
    if (shares.isEmpty()) {
      throw new IllegalArgumentException("no SMB shares");
    }
    SmbService s = new SmbService(settings);
    try {
      s.startAll(shares, mounter, backoff);
      return s;
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
  }

  private void startAll(List<SmbShare> shares, Mounter mounter, Backoff backoff) {
    warnIfOld(settings.smbd());
    SmbdSupervisor.stopLeftover(layout.pidFile(), layout.conf(), settings.stopTimeout());
    for (SmbShare share : shares) {
      clearDeadMount(layout.mountpoint(share.name())); // before anything stats the path
    }
    layout.create(shares.stream().map(SmbShare::name).toList());
    for (SmbShare share : shares) {
      Path mp = layout.mountpoint(share.name());
      var fuse = share.fuse().toBuilder().allowOther(true).readOnly(share.readOnly()).build();
      MountHandle h = mounter.mount(share.fs(), mp, fuse);
      served.add(new Served(share, mp, h));
      LOG.infof("SMB share '%s': %s mounted at %s%s", share.name(), share.source(), mp,
          share.readOnly() ? " (read-only)" : "");
    }
    writeConf(SmbConf.render(layout, settings, shares));
    SmbAccounts.apply(layout.conf(), settings.users());
    supervisor = new SmbdSupervisor(SmbdSupervisor.smbdCommand(settings.smbd(), layout.conf()),
        new InetSocketAddress(settings.probeAddress(), settings.port()), backoff, settings.stopTimeout(),
        System::nanoTime);
    supervisor.start(LISTEN_TIMEOUT);
    LOG.infof("smbd listens on %s:%d with %d share(s) (%s)", settings.bind(), settings.port(), shares.size(),
        layout.conf());
  }

  /**
   * Samba before 4.20 crashes the connection (PANIC in fd_close) when a client that asks for attributes at close
   * (SMB2_CLOSE_FLAGS_FULL_INFORMATION, as smbj does) deletes a file on a FUSE mount: the fstat of the removed file
   * fails there. Seen with Debian 12's 4.17; 4.22 (bookworm-backports) returns the error instead.
   */
  static void warnIfOld(Path smbd) {
    SambaTools.Result r = SambaTools.run(List.of(smbd.toString(), "--version"), null);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("Version (\\d+)\\.(\\d+)").matcher(r.output());
    if (m.find() && Integer.parseInt(m.group(1)) == 4 && Integer.parseInt(m.group(2)) < 20) {
      LOG.warnf("%s: SMB clients that query attributes at close crash their connection when they delete a file on "
          + "these shares (a Samba bug, fixed in 4.20+); on Debian 12 install Samba from bookworm-backports: "
          + "apt-get install -t bookworm-backports samba", r.output());
    }
  }

  /** A FUSE mount point under our own state dir whose server died (a killed gateway): detach it. */
  private static void clearDeadMount(Path mp) {
    StaleMounts.Status st = StaleMounts.check(mp);
    if (st.state() == StaleMounts.State.DEAD) {
      LOG.warnf("%s is a dead FUSE mount of an earlier run: detaching it", mp);
      SambaTools.Result r = SambaTools.run(List.of("umount", "-l", mp.toString()), null);
      if (!r.ok()) {
        throw new SmbException(st.message() + " (umount -l: " + r.output() + ")");
      }
    }
  }

  private void writeConf(String text) {
    try {
      Path tmp = layout.conf().resolveSibling("smb.conf.tmp");
      Files.writeString(tmp, text);
      Files.move(tmp, layout.conf(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + layout.conf() + ": " + e.getMessage(), e);
    }
  }

  /** True while smbd runs and every share is still mounted (readiness). */
  public boolean isRunning() {
    return supervisor != null && supervisor.isRunning() && served.stream().allMatch(s -> s.handle().isMounted());
  }

  /** True while smbd runs (false while it is being restarted). */
  public boolean smbdRunning() {
    return supervisor != null && supervisor.isRunning();
  }

  /** How often smbd had to be restarted (metrics). */
  public long smbdRestarts() {
    return supervisor == null ? 0 : supervisor.restarts();
  }

  /** The running smbd's pid. */
  public OptionalLong smbdPid() {
    return supervisor == null ? OptionalLong.empty() : supervisor.pid();
  }

  /** The served shares. */
  public List<Served> shares() {
    return List.copyOf(served);
  }

  /** Where Samba's files are. */
  public SmbLayout layout() {
    return layout;
  }

  /** The settings it runs with. */
  public SmbSettings settings() {
    return settings;
  }

  /** Stops smbd, then unmounts every share and removes a socket directory in /tmp ({@link SmbLayout}); idempotent. */
  @Override
  public synchronized void close() {
    if (supervisor != null) {
      supervisor.close();
    }
    layout.removeSocketRoot();
    for (Served s : served.reversed()) {
      try {
        s.handle().close();
        LOG.infof("SMB share '%s' unmounted (%s)", s.share().name(), s.mountpoint());
      } catch (RuntimeException e) {
        LOG.warnf("unmounting SMB share '%s' failed: %s", s.share().name(), e.getMessage());
      }
    }
    served.clear();
  }
}
