package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.xdr.*;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RENAME onto and of a file CREATEd and not yet uploaded (issue 9 item 5), through oncrpc4j's RPC client: the open
 * handles live a minute, so every step happens while the create is pending; a restart of the gateway then releases
 * them (uploading what is pending) and the bucket must hold exactly what the client last saw.
 */
class NfsRenamePendingTest {
  @TempDir
  Path state;

  private static nfs_fh3 dir(NfsClient nfs, nfs_fh3 root, String name) {
    MKDIR3res r = nfs.mkdir(root, name, 0755);
    assertThat(r.status()).as("MKDIR " + name).isEqualTo(nfsstat3.NFS3_OK);
    return r.obj();
  }

  private static void ok(int status, String what) {
    assertThat(nfsstat3.name(status)).as(what).isEqualTo(nfsstat3.name(nfsstat3.NFS3_OK));
  }

  private static void symlink(NfsClient nfs, nfs_fh3 d, String name, String target) {
    ok(nfs.nfs(Nfs3.NFSPROC3_SYMLINK, new SYMLINK3args(new diropargs3(d, name), sattr3.NONE, target),
        SYMLINK3res::decode).status(), "SYMLINK " + name);
  }

  /** key -> "mode:content" of the objects under a prefix. */
  private static Map<String, String> bucket(NfsGateway gw, String prefix) {
    Map<String, String> m = new TreeMap<>();
    for (var o : gw.sdk.listObjects(NfsGateway.BUCKET, prefix).getObjectSummaries()) {
      String mode = gw.sdk.getObjectMetadata(NfsGateway.BUCKET, o.getKey()).getUserMetadata().get("mode");
      m.put(o.getKey(), Integer.toOctalString(Integer.parseInt(mode)) + ":" + new String(gw.object(o.getKey()),
          java.nio.charset.StandardCharsets.UTF_8));
    }
    return m;
  }

  @Test
  void renamesOntoAndOfPendingFilesLeaveExactlyWhatTheClientSaw() {
    try (NfsGateway gw = NfsGateway.withOpenIdle(state, Duration.ofMinutes(1))) {
      try (NfsClient nfs = new NfsClient(gw.port(), 1000, 1000)) {
        nfs_fh3 root = nfs.root("/" + NfsGateway.BUCKET);
        // the sequence: a symlink renamed over a pending file is a symlink, readable at once
        nfs_fh3 a = dir(nfs, root, "a");
        ok(nfs.create(a, "f", 0644).status(), "CREATE f");
        symlink(nfs, a, "s", "target-of-s");
        ok(nfs.rename(a, "s", a, "f").status(), "RENAME s f");
        LOOKUP3res f = nfs.lookup(a, "f");
        ok(f.status(), "LOOKUP f");
        assertThat(f.objAttributes().type()).isEqualTo(Nfs3.NF3LNK);
        READLINK3res rl = nfs.nfs(Nfs3.NFSPROC3_READLINK, new READLINK3args(f.object()), READLINK3res::decode);
        ok(rl.status(), "READLINK f");
        assertThat(rl.data()).isEqualTo("target-of-s");
        // ... and removed before the pending create's upload: nothing stays, the directory can go
        nfs_fh3 b = dir(nfs, root, "b");
        ok(nfs.create(b, "f", 0644).status(), "CREATE b/f");
        symlink(nfs, b, "s", "t");
        ok(nfs.rename(b, "s", b, "f").status(), "RENAME b/s b/f");
        ok(nfs.remove(b, "f").status(), "REMOVE b/f");
        ok(nfs.rmdir(root, "b").status(), "RMDIR b");
        // a pending file renamed over a file, a symlink and a pending file, each then removed
        nfs_fh3 c = dir(nfs, root, "c");
        nfs.put(c, "file", NfsClient.utf8("old file"));
        symlink(nfs, c, "link", "old-link");
        ok(nfs.create(c, "pending", 0644).status(), "CREATE c/pending");
        for (String target : new String[] {"file", "link", "pending"}) {
          ok(nfs.create(c, "p", 0644).status(), "CREATE c/p");
          ok(nfs.rename(c, "p", c, target).status(), "RENAME c/p c/" + target);
          assertThat(nfs.lookup(c, target).objAttributes().type()).isEqualTo(Nfs3.NF3REG);
          ok(nfs.remove(c, target).status(), "REMOVE c/" + target);
        }
        // a pending file renamed over a file and kept: the empty file replaces it
        nfs_fh3 d = dir(nfs, root, "d");
        nfs.put(d, "file", NfsClient.utf8("old file"));
        ok(nfs.create(d, "p", 0640).status(), "CREATE d/p");
        ok(nfs.rename(d, "p", d, "file").status(), "RENAME d/p d/file");
      }
      gw.restart(); // releases every open handle: pending creates are uploaded now, replaced ones must not be
      assertThat(bucket(gw, "a/")).isEqualTo(Map.of("a/", "40755:", "a/f", "120777:target-of-s"));
      assertThat(bucket(gw, "b/")).isEmpty();
      assertThat(bucket(gw, "c/")).isEqualTo(Map.of("c/", "40755:"));
      assertThat(bucket(gw, "d/")).isEqualTo(Map.of("d/", "40755:", "d/file", "100640:"));
    }
  }
}
