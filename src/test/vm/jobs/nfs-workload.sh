#!/bin/bash
# The workload a person runs on an NFSv3 mount of the gateway (issue 10 item 2), with checks after every step and
# again after umount + mount. Environment: NFS_PORT, BUCKET (NFS_HOST defaults to 10.0.2.2); DD_MB (size of the
# big file, default 200), SMALL_FILES (default 1000). Prints "TIME <step> <s>" lines for the docs.
# Standalone: src/test/vm/run.sh -e NFS_PORT=P -e BUCKET=B -f src/test/vm/jobs/lib.sh src/test/vm/jobs/nfs-workload.sh
set -eu
. /job/lib.sh
MP=/mnt/nfs
DD_MB=${DD_MB:-200}
SMALL_FILES=${SMALL_FILES:-1000}
dmesg_before=$(dmesg_errors | wc -l)
note "mount (explicit NFSv3 options)"
timed mount mount_v3 $MP
expect_eq "NFS version of the explicit mount" 3 "$(nfs_vers $MP)"

step_dd

step_small_files

note "tar x and cp -a of a tree with fixed modes and mtimes (files and directories)"
make_tree
mkdir $MP/tarx
timed tar-x tar xf /tmp/tree.tar -C $MP/tarx
manifest $MP/tarx/tree > /tmp/tarx.manifest
expect_same "tar x: the extracted tree (mode, owner, mtime of files and dirs, symlinks, content)" \
  /tmp/tree.manifest /tmp/tarx.manifest
timed cp-a cp -a /tmp/tree $MP/cpa
manifest $MP/cpa > /tmp/cpa.manifest
expect_same "cp -a: the copied tree" /tmp/tree.manifest /tmp/cpa.manifest

step_renames
cp -a $MP/cpa $MP/doomed
rm -rf $MP/doomed
[ ! -e $MP/doomed ] || fail "rm -rf left doomed"

note "chmod, touch -d on files and non-empty directories"
echo mode > $MP/p/mode; chmod 0604 $MP/p/mode; chmod 0701 $MP/p/q2
expect_eq "mode after chmod 0604" 604 "$(stat -c %a $MP/p/mode)"
expect_eq "dir mode after chmod 0701" 701 "$(stat -c %a $MP/p/q2)"
step_touch_d

note "ln -s, ln (hard links: EPERM)"
ln -s q2/r/moved $MP/p/sym
expect_eq "symlink target" q2/r/moved "$(readlink $MP/p/sym)"
expect_eq "read through the symlink" one "$(cat $MP/p/sym)"
if ln $MP/p/mode $MP/p/hard 2>/tmp/ln.err; then fail "ln (hard link) succeeded"; fi
grep -q "Operation not permitted" /tmp/ln.err \
  || fail "ln: expected 'Operation not permitted' (EPERM), got: $(cat /tmp/ln.err)"
[ ! -e $MP/p/hard ] || fail "ln left p/hard"

step_truncate_append
step_df

verify_all() { # everything written above, as it must look now
  verify_shared "$1" /tmp/tree.manifest
  expect_eq "$1: mode" 604 "$(stat -c %a $MP/p/mode)"
  expect_eq "$1: dir mode" 701 "$(stat -c %a $MP/p/q2)"
  expect_eq "$1: symlink" q2/r/moved "$(readlink $MP/p/sym)"
  [ ! -e $MP/p/hard ] && [ ! -e $MP/doomed ] && [ ! -e $MP/p/one ] || fail "$1: a removed name is back"
}
note "umount, mount again, verify everything"
verify_all "before umount"
umount $MP
mount_v3 $MP
verify_all "after umount + mount"
umount $MP
dmesg_after=$(dmesg_errors | wc -l)
if [ "$dmesg_after" -ne "$dmesg_before" ]; then dmesg_errors; fail "the kernel logged errors during the workload"; fi
note "done"
echo "WORKLOAD OK"
