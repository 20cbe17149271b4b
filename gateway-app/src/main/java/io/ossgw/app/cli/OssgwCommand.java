package io.ossgw.app.cli;

import picocli.CommandLine.Command;

/** The top command; {@code ossgw} alone prints the usage. */
@Command(
    name = "ossgw",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Alibaba Cloud OSS buckets as a local file system (FUSE mount), an NFS export (NFSv4.1 and v3) and "
        + "an SMB2/3 share (Samba).",
    subcommands = {MountCommand.class, UmountCommand.class, ServeCommand.class, DemoCommand.class, EmulatorCommand.class,
        ClusterCommand.class},
    footer = {"", "Examples:",
        "  ossgw demo                      zero-config demo: an embedded emulator, mounted",
        "  ossgw mount mybucket:/data /mnt/oss -o url=https://oss-cn-hangzhou.aliyuncs.com",
        "  ossgw mount --list-options      every -o option: kind, default, unit, meaning",
        "  ossgw umount /mnt/oss",
        "  ossgw serve mybucket --nfs --smb --smb-user alice:/etc/ossgw/alice.pw   NFS /mybucket, SMB \\\\HOST\\mybucket",
        "  ossgw serve --config /etc/ossgw/ossgw.properties"})
public class OssgwCommand implements Runnable {
  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
