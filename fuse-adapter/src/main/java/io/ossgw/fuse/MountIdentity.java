package io.ossgw.fuse;

import java.util.List;
import java.util.Optional;

/**
 * Which kernel mount a {@link MountedFilesystem} made, so that a process only ever unmounts its own mount.
 *
 * <p>The mount id alone is not enough: Linux hands a freed id to the next mount anywhere (lowest free number first),
 * so after an unmount a new mount at the same path often gets the old id (issue 9 item 1: an old process detached a
 * newer mount that had its id). The device number ({@code major:minor}, the {@code st_dev} of the mount's files) is
 * held by the FUSE connection's superblock for as long as the mount exists, so while our mount is listed no other
 * mount can have it; together with the id and the path it names our mount. Once our superblock is gone both numbers
 * can be reused by one new mount, which is why {@link MountedFilesystem} also requires a mount that matches to be
 * dead (a mount whose session has ended cannot answer) before it detaches anything after its session ended.
 *
 * @param mountId the mount id (field 1 of /proc/self/mountinfo)
 * @param device {@code major:minor} (field 3)
 * @param mountPoint the mount point as the kernel lists it
 */
public record MountIdentity(int mountId, String device, String mountPoint) {

  /** The identity of a mount table entry. */
  public static MountIdentity of(MountInfo.Entry e) {
    return new MountIdentity(e.mountId(), e.device(), e.mountPoint());
  }

  /** True if {@code e} is this mount: same id, device and mount point. */
  public boolean matches(MountInfo.Entry e) {
    return e != null && e.mountId() == mountId && e.device().equals(device) && e.mountPoint().equals(mountPoint);
  }

  /** This mount's entry in {@code table}, if it is still listed (possibly covered by a later mount). */
  public Optional<MountInfo.Entry> findIn(List<MountInfo.Entry> table) {
    return table.stream().filter(this::matches).findFirst();
  }

  /** True if the topmost mount at {@link #mountPoint} in {@code table} is this one (what {@code fusermount -u} hits). */
  public boolean isTopmostIn(List<MountInfo.Entry> table) {
    return MountInfo.find(table, mountPoint).filter(this::matches).isPresent();
  }

  @Override
  public String toString() {
    return "mount id " + mountId + ", device " + device + " at " + mountPoint;
  }
}
