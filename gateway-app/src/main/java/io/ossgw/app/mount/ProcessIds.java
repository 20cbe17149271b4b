package io.ossgw.app.mount;

import com.sun.security.auth.module.UnixSystem;

/** The real uid and gid of this process: the owner ossgw shows for objects without x-oss-meta-uid/gid, like ossfs. */
public final class ProcessIds {
  private static final UnixSystem UNIX = new UnixSystem();

  private ProcessIds() {}

  /** This process's uid. */
  public static int uid() {
    return (int) UNIX.getUid();
  }

  /** This process's primary gid. */
  public static int gid() {
    return (int) UNIX.getGid();
  }
}
