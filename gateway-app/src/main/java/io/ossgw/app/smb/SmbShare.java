package io.ossgw.app.smb;

import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.fuse.FuseOptions;
import java.util.List;
import java.util.Objects;

/**
 * One SMB share as {@link SmbService} serves it.
 *
 * @param name the share name clients use ({@code \\host\name})
 * @param source what it shows, for logs and health data, e.g. {@code bucket:/prefix}
 * @param fs the file system to mount (usually an engine shared with the other front ends of the same bucket/prefix)
 * @param fuse the FUSE options of its mount; {@code allow_other} is forced on, and {@code ro} for read-only shares
 * @param readOnly smb.conf {@code read only}
 * @param validUsers smb.conf {@code valid users}; empty means nobody with a password (then {@code guest} should be on)
 * @param guest smb.conf {@code guest ok}
 */
public record SmbShare(String name, String source, VirtualFileSystem fs, FuseOptions fuse, boolean readOnly,
    List<String> validUsers, boolean guest) {
  public SmbShare {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(fs, "fs");
    Objects.requireNonNull(fuse, "fuse");
    validUsers = List.copyOf(validUsers);
  }
}
