package io.ossgw.nfs.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileType;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.ExportTest;
import io.ossgw.nfs.export.Squash;
import io.ossgw.nfs.xdr.Nfs3;
import java.time.Instant;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeNone;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeUnix;
import org.junit.jupiter.api.Test;

/** Squashing and POSIX permission checks. */
class AuthTest {
  static Export export(Squash s) {
    return Export.builder("/b", ExportTest.FS).squash(s).anonUid(99).anonGid(98).build();
  }

  static FileAttr attr(FileType t, int mode, int uid, int gid) {
    Instant n = Instant.now();
    return new FileAttr(5, t, mode, uid, gid, 0, n, n, n, null);
  }

  @Test
  void squashModes() {
    RpcAuthTypeUnix root = new RpcAuthTypeUnix(0, 0, new int[] {0, 5}, 0, "h");
    RpcAuthTypeUnix user = new RpcAuthTypeUnix(1000, 100, new int[] {0, 7}, 0, "h");
    Caller c = Identities.caller(root, export(Squash.ROOT_SQUASH));
    assertThat(c.uid()).isEqualTo(99);
    assertThat(c.gid()).isEqualTo(98);
    assertThat(c.groups()).containsExactly(98, 5);
    Caller u = Identities.caller(user, export(Squash.ROOT_SQUASH));
    assertThat(u.uid()).isEqualTo(1000);
    assertThat(u.groups()).containsExactly(98, 7);
    assertThat(Identities.caller(user, export(Squash.ALL_SQUASH)).uid()).isEqualTo(99);
    assertThat(Identities.caller(root, export(Squash.NO_ROOT_SQUASH)).uid()).isZero();
    assertThat(Identities.caller(new RpcAuthTypeNone(), export(Squash.NO_ROOT_SQUASH)).uid()).isEqualTo(99);
  }

  @Test
  void modeBits() {
    FileAttr f = attr(FileType.REGULAR, 0640, 10, 20);
    Caller owner = new Caller(10, 1, new int[0]);
    Caller member = new Caller(11, 1, new int[] {20});
    Caller other = new Caller(12, 1, new int[0]);
    Caller root = new Caller(0, 0, new int[0]);
    assertThat(Permissions.allowed(f, owner, Permissions.R | Permissions.W)).isTrue();
    assertThat(Permissions.allowed(f, member, Permissions.R)).isTrue();
    assertThat(Permissions.allowed(f, member, Permissions.W)).isFalse();
    assertThat(Permissions.allowed(f, other, Permissions.R)).isFalse();
    assertThat(Permissions.allowed(f, root, Permissions.R | Permissions.W)).isTrue();
    assertThat(Permissions.allowed(f, root, Permissions.X)).as("root needs some x bit").isFalse();
    // owner override for data access only
    FileAttr ro = attr(FileType.REGULAR, 0444, 10, 20);
    assertThat(Permissions.dataAccess(ro, owner, Permissions.W)).isTrue();
    assertThat(Permissions.dataAccess(ro, member, Permissions.W)).isFalse();
    // sticky directories
    FileAttr tmp = attr(FileType.DIRECTORY, 01777, 0, 0);
    assertThat(Permissions.stickyAllows(tmp, f, owner)).isTrue();
    assertThat(Permissions.stickyAllows(tmp, f, other)).isFalse();
    assertThat(Permissions.stickyAllows(attr(FileType.DIRECTORY, 0777, 0, 0), f, other)).isTrue();
  }

  @Test
  void linuxRulesTheClientLeavesToTheServer() {
    Caller nobody = new Caller(65534, 65534, new int[0]);
    Caller other = new Caller(65533, 65533, new int[0]);
    Caller root = new Caller(0, 0, new int[0]);
    FileAttr f = attr(FileType.REGULAR, 0644, 65534, 65534);
    // chown_ok/chgrp_ok: a non-owner may not set even the current ids; the owner may keep them
    assertThatThrownBy(() -> SetAttrRules.checkOwnership(f, null, 65534, 65534, false, other))
        .isInstanceOfSatisfying(SetAttrRules.Refused.class, r -> assertThat(r.perm()).isTrue());
    assertThatThrownBy(() -> SetAttrRules.checkOwnership(f, null, null, 65534, false, other))
        .isInstanceOf(SetAttrRules.Refused.class);
    assertThat(SetAttrRules.checkOwnership(f, null, 65534, 65534, false, nobody)).isNull();
    assertThat(SetAttrRules.checkOwnership(f, null, 65533, 65533, false, root)).isNull();
    // the owner class binds the owner
    FileAttr ownerReadOnly = attr(FileType.REGULAR, 0477, 65534, 65534);
    assertThat(Permissions.allowed(ownerReadOnly, nobody, Permissions.W)).isFalse();
    assertThat(Permissions.allowed(ownerReadOnly, other, Permissions.W)).isTrue();
    // rename: sticky target EPERM, a directory to another parent needs w on itself
    FileAttr sticky = attr(FileType.DIRECTORY, 01777, 0, 0);
    FileAttr theirs = attr(FileType.REGULAR, 0644, 65533, 65533);
    FileAttr dir = attr(FileType.DIRECTORY, 0755, 65533, 65533);
    assertThat(Permissions.renameRefusal(sticky, theirs, f, true, nobody)).isEqualTo(Errno.EPERM);
    assertThat(Permissions.renameRefusal(sticky, theirs, f, true, other)).isNull();
    assertThat(Permissions.renameRefusal(sticky, null, dir, false, nobody)).isEqualTo(Errno.EACCES);
    assertThat(Permissions.renameRefusal(sticky, null, dir, true, nobody)).isNull();
    assertThat(Permissions.renameRefusal(sticky, null, dir, false, other)).isNull();
    assertThat(Permissions.renameRefusal(sticky, null, dir, false, root)).isNull();
    // locks: read or write permission, or ownership
    assertThat(Permissions.mayLock(attr(FileType.REGULAR, 0600, 65533, 1), nobody)).isFalse();
    assertThat(Permissions.mayLock(attr(FileType.REGULAR, 0602, 65533, 1), nobody)).isTrue();
    assertThat(Permissions.mayLock(attr(FileType.REGULAR, 0000, 65534, 1), nobody)).isTrue();
  }

  @Test
  void accessBitsRespectReadOnlyExports() {
    FileAttr d = attr(FileType.DIRECTORY, 0755, 10, 20);
    Caller owner = new Caller(10, 1, new int[0]);
    int all = 0x3f;
    assertThat(Permissions.access(d, owner, all, false)).isEqualTo(Nfs3.ACCESS3_READ | Nfs3.ACCESS3_LOOKUP
        | Nfs3.ACCESS3_MODIFY | Nfs3.ACCESS3_EXTEND | Nfs3.ACCESS3_DELETE);
    assertThat(Permissions.access(d, owner, all, true)).isEqualTo(Nfs3.ACCESS3_READ | Nfs3.ACCESS3_LOOKUP);
    FileAttr exe = attr(FileType.REGULAR, 0750, 10, 20);
    assertThat(Permissions.access(exe, new Caller(11, 20, new int[0]), all, false))
        .isEqualTo(Nfs3.ACCESS3_READ | Nfs3.ACCESS3_EXECUTE);
  }
}
