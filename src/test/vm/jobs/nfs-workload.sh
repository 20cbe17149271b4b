#!/bin/bash
# The workload a person runs on an NFS mount of the gateway (issue 10 item 2, issue 11): lib.sh's steps over NFSv4.1
# on one port, or with NFS_VERS=3 the very same steps over NFSv3 (explicit options, nolock), with checks after every
# step and again after umount + mount; one guest can run both side by side (test_nfs4_workload.py's comparison).
# Environment: NFS_PORT, BUCKET (NFS_HOST defaults to 10.0.2.2); NFS_VERS (4.1 or 3, default 4.1); SUBDIR (the
# workload runs in MOUNT/SUBDIR, created; default: the mount's root); DD_MB (default 200), SMALL_FILES (default 1000);
# EMU_PORT (optional: the emulator's port, to print the OSS requests of each step as "OSS <step> {json}").
# Prints "TIME <step> <s>" lines for the docs.
# Standalone: src/test/vm/run.sh -e NFS_PORT=P -e BUCKET=B [-e NFS_VERS=3] -f src/test/vm/jobs/lib.sh src/test/vm/jobs/nfs-workload.sh
set -eu
. /job/lib.sh
NFS_VERS=${NFS_VERS:-4.1}
ROOT=/mnt/nfs$NFS_VERS
DD_MB=${DD_MB:-200}
SMALL_FILES=${SMALL_FILES:-1000}
SUBDIR=${SUBDIR:-}
dmesg_before=$(dmesg_errors | wc -l)
mount_it() {
  if [ "$NFS_VERS" = 3 ]; then mount_v3 $ROOT; else mount_v41 $ROOT; fi
}
oss_counters before
note "mount NFS $NFS_VERS"
timed mount mount_it
expect_eq "NFS version of the mount" "$NFS_VERS" "$(nfs_vers $ROOT)"
grep " $ROOT " /proc/mounts
MP=$ROOT${SUBDIR:+/$SUBDIR}
mkdir -p $MP
oss_counters mount

step_dd
oss_counters dd

step_small_files
oss_counters small-files

note "tar x and cp -a of a tree with fixed modes and mtimes (files and directories)"
rm -rf /tmp/tree /tmp/tree.tar
make_tree
mkdir $MP/tarx
timed tar-x tar xf /tmp/tree.tar -C $MP/tarx
manifest $MP/tarx/tree > /tmp/tarx.manifest
expect_same "tar x: the extracted tree (mode, owner, mtime of files and dirs, symlinks, content)" \
  /tmp/tree.manifest /tmp/tarx.manifest
oss_counters tar-x
timed cp-a cp -a /tmp/tree $MP/cpa
manifest $MP/cpa > /tmp/cpa.manifest
expect_same "cp -a: the copied tree" /tmp/tree.manifest /tmp/cpa.manifest
oss_counters cp-a

step_renames
cp -a $MP/cpa $MP/doomed
timed rm-rf rm -rf $MP/doomed
[ ! -e $MP/doomed ] || fail "rm -rf left doomed"
oss_counters renames-rm

note "chmod, touch -d on files and non-empty directories"
echo mode > $MP/p/mode; chmod 0604 $MP/p/mode; chmod 0701 $MP/p/q2
expect_eq "mode after chmod 0604" 604 "$(stat -c %a $MP/p/mode)"
expect_eq "dir mode after chmod 0701" 701 "$(stat -c %a $MP/p/q2)"
step_touch_d

note "ln -s, ln (hard links: EPERM, as over NFSv3)"
ln -s q2/r/moved $MP/p/sym
expect_eq "symlink target" q2/r/moved "$(readlink $MP/p/sym)"
expect_eq "read through the symlink" one "$(cat $MP/p/sym)"
if ln $MP/p/mode $MP/p/hard 2>/tmp/ln.err; then fail "ln (hard link) succeeded"; fi
grep -q "Operation not permitted" /tmp/ln.err \
  || fail "ln: expected 'Operation not permitted' (EPERM), got: $(cat /tmp/ln.err)"
[ ! -e $MP/p/hard ] || fail "ln left p/hard"

step_truncate_append
step_df
oss_counters attrs-links-truncate

verify_all() { # everything written above, as it must look now
  verify_shared "$1" /tmp/tree.manifest
  expect_eq "$1: mode" 604 "$(stat -c %a $MP/p/mode)"
  expect_eq "$1: dir mode" 701 "$(stat -c %a $MP/p/q2)"
  expect_eq "$1: symlink" q2/r/moved "$(readlink $MP/p/sym)"
  [ ! -e $MP/p/hard ] && [ ! -e $MP/doomed ] && [ ! -e $MP/p/one ] || fail "$1: a removed name is back"
}
note "umount, mount again, verify everything"
verify_all "before umount"
timed umount umount $ROOT
oss_counters umount
mount_it
verify_all "after umount + mount"
umount $ROOT
oss_counters remount-verify
dmesg_after=$(dmesg_errors | wc -l)
if [ "$dmesg_after" -ne "$dmesg_before" ]; then dmesg_errors; fail "the kernel logged errors during the workload"; fi
note "done"
echo "WORKLOAD OK $NFS_VERS"
