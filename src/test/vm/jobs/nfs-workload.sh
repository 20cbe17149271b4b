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

note "dd $DD_MB MB write + read back with checksums"
dd if=/dev/urandom of=/tmp/big bs=1M count="$DD_MB" status=none
sum=$(sha256sum < /tmp/big)
timed dd-write dd if=/tmp/big of=$MP/big bs=1M conv=fsync status=none
rm /tmp/big
echo 3 > /proc/sys/vm/drop_caches
timed dd-read sh -c "dd if=$MP/big bs=1M status=none | sha256sum > /tmp/big.sum"
expect_eq "sha256 of the big file read back" "$sum" "$(cat /tmp/big.sum)"
expect_eq "size of the big file" $((DD_MB * 1048576)) "$(stat -c %s $MP/big)"

note "$SMALL_FILES small files created and listed"
mkdir $MP/small
small() { i=1; while [ $i -le "$SMALL_FILES" ]; do echo "small file $i" > $MP/small/f$i; i=$((i + 1)); done; }
timed small-create small
timed small-list sh -c "ls -l $MP/small > /tmp/small.ls"
expect_eq "entries listed in small/" "$SMALL_FILES" "$(ls $MP/small | wc -l)"
expect_eq "content of small/f$SMALL_FILES" "small file $SMALL_FILES" "$(cat $MP/small/f$SMALL_FILES)"

note "tar x and cp -a of a tree with fixed modes and mtimes (files and directories)"
T=/tmp/tree
mkdir -p $T/a/b/c $T/d/e $T/empty $T/private
i=0
for dir in $T $T/a $T/a/b $T/a/b/c $T/d $T/d/e $T/private; do
  for n in 1 2 3; do i=$((i + 1)); head -c $((i * 1537)) /dev/urandom > $dir/file$n; done
done
chmod 0600 $T/a/file1; chmod 0755 $T/a/b/file2; chmod 0640 $T/d/file3; chmod 0444 $T/d/e/file1
ln -s ../d/file1 $T/a/link-to-d; ln -s does-not-exist $T/dangling; ln -s /etc/hostname $T/d/absolute
find $T -depth ! -type l -exec touch -d '2001-02-03 04:05:06' {} +
touch -d '2003-04-05 06:07:08' $T/a/b/c/file1 $T/a/b  # a few different times
chmod 0700 $T/private; chmod 0750 $T/d/e; chmod 0755 $T/a
touch -d '2004-05-06 07:08:09' $T/private $T/d/e $T/empty
(cd /tmp && tar cf /tmp/tree.tar tree)
manifest $T > /tmp/tree.manifest
mkdir $MP/tarx
timed tar-x tar xf /tmp/tree.tar -C $MP/tarx
manifest $MP/tarx/tree > /tmp/tarx.manifest
expect_same "tar x: the extracted tree (mode, owner, mtime of files and dirs, symlinks, content)" \
  /tmp/tree.manifest /tmp/tarx.manifest
timed cp-a cp -a $T $MP/cpa
manifest $MP/cpa > /tmp/cpa.manifest
expect_same "cp -a: the copied tree" /tmp/tree.manifest /tmp/cpa.manifest

note "mkdir -p, rename of files and directories, rename over an existing file, rm -rf"
mkdir -p $MP/p/q/r
echo inner > $MP/p/q/r/inner
mv $MP/p/q $MP/p/q2
expect_eq "file inside a renamed directory" inner "$(cat $MP/p/q2/r/inner)"
[ ! -e $MP/p/q ] || fail "p/q still exists after its rename"
echo one > $MP/p/one; echo two > $MP/p/two
mv $MP/p/one $MP/p/two
expect_eq "rename over an existing file" one "$(cat $MP/p/two)"
[ ! -e $MP/p/one ] || fail "p/one still exists after rename over p/two"
mv $MP/p/two $MP/p/q2/r/moved
expect_eq "file moved to another directory" one "$(cat $MP/p/q2/r/moved)"
cp -a $MP/cpa $MP/doomed
rm -rf $MP/doomed
[ ! -e $MP/doomed ] || fail "rm -rf left doomed"

note "chmod, touch -d on files and non-empty directories"
echo mode > $MP/p/mode; chmod 0604 $MP/p/mode; chmod 0701 $MP/p/q2
expect_eq "mode after chmod 0604" 604 "$(stat -c %a $MP/p/mode)"
expect_eq "dir mode after chmod 0701" 701 "$(stat -c %a $MP/p/q2)"
touch -d '2002-03-04 05:06:07' $MP/p/mode $MP/p/q2 $MP/p
want=$(date -d '2002-03-04 05:06:07' +%s)
expect_eq "mtime of a file after touch -d" "$want" "$(stat -c %Y $MP/p/mode)"
expect_eq "mtime of a non-empty directory after touch -d" "$want" "$(stat -c %Y $MP/p/q2)"
expect_eq "mtime of a non-empty directory (two levels) after touch -d" "$want" "$(stat -c %Y $MP/p)"

note "ln -s, ln (hard links: EPERM)"
ln -s q2/r/moved $MP/p/sym
expect_eq "symlink target" q2/r/moved "$(readlink $MP/p/sym)"
expect_eq "read through the symlink" one "$(cat $MP/p/sym)"
if ln $MP/p/mode $MP/p/hard 2>/tmp/ln.err; then fail "ln (hard link) succeeded"; fi
grep -q "Operation not permitted" /tmp/ln.err \
  || fail "ln: expected 'Operation not permitted' (EPERM), got: $(cat /tmp/ln.err)"
[ ! -e $MP/p/hard ] || fail "ln left p/hard"

note "truncate, append"
printf '0123456789' > $MP/p/trunc
truncate -s 4 $MP/p/trunc
expect_eq "content after truncate -s 4" 0123 "$(cat $MP/p/trunc)"
truncate -s 4100 $MP/p/trunc
expect_eq "size after truncate -s 4100" 4100 "$(stat -c %s $MP/p/trunc)"
expect_eq "non-zero bytes after the grown end" 0 "$(tail -c 4096 $MP/p/trunc | tr -d '\000' | wc -c)"
echo first > $MP/p/append; echo second >> $MP/p/append
expect_eq "content after append" "first
second" "$(cat $MP/p/append)"

note "df"
df -k $MP > /tmp/df.out || fail "df $MP failed"
blocks=$(awk 'NR == 2 { print $2 }' /tmp/df.out)
[ "${blocks:-0}" -gt 0 ] || fail "df shows no size: $(cat /tmp/df.out)"
cat /tmp/df.out

verify_all() { # everything written above, as it must look now
  expect_eq "$1: sha256 of the big file" "$sum" "$(sha256sum < $MP/big)"
  expect_eq "$1: entries in small/" "$SMALL_FILES" "$(ls $MP/small | wc -l)"
  manifest $MP/tarx/tree > /tmp/tarx.manifest
  expect_same "$1: tar x tree" /tmp/tree.manifest /tmp/tarx.manifest
  manifest $MP/cpa > /tmp/cpa.manifest
  expect_same "$1: cp -a tree" /tmp/tree.manifest /tmp/cpa.manifest
  expect_eq "$1: mode" 604 "$(stat -c %a $MP/p/mode)"
  expect_eq "$1: dir mode" 701 "$(stat -c %a $MP/p/q2)"
  expect_eq "$1: file mtime" "$want" "$(stat -c %Y $MP/p/mode)"
  expect_eq "$1: non-empty dir mtime" "$want" "$(stat -c %Y $MP/p/q2)"
  expect_eq "$1: symlink" q2/r/moved "$(readlink $MP/p/sym)"
  expect_eq "$1: truncated size" 4100 "$(stat -c %s $MP/p/trunc)"
  expect_eq "$1: appended" "first
second" "$(cat $MP/p/append)"
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
