package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.readFile;
import static io.ossgw.core.engine.TestGateway.utf8;
import static io.ossgw.core.engine.TestGateway.writeFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.model.ListObjectsV2Request;
import com.aliyun.oss.model.OSSObjectSummary;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FileType;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * rename(2) of every kind of entry onto every kind (issue 9 item 5): a file, a directory, a symlink and a file created
 * but not yet uploaded ("pending"), onto nothing, a file, an empty directory, a symlink and a pending file; then the
 * handles are released, or the new name is removed before any upload. What the bucket holds afterwards is checked with
 * the SDK (keys, their types in the ossfs mode metadata, contents), and through a fresh engine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RenameMatrixTest {
  enum Kind { FILE, DIR, SYMLINK, PENDING }

  enum Target { ABSENT, FILE, DIR, SYMLINK, PENDING }

  @TempDir Path state;
  TestGateway gw;
  VirtualFileSystem fs;
  final AtomicInteger cases = new AtomicInteger();

  @BeforeAll
  void start() {
    gw = new TestGateway(state);
    fs = gw.mount();
  }

  @AfterAll
  void stop() {
    gw.close();
  }

  static Stream<Arguments> matrix() {
    List<Arguments> out = new ArrayList<>();
    for (Kind k : Kind.values()) {
      for (Target t : Target.values()) {
        out.add(Arguments.of(k, t, false));
        out.add(Arguments.of(k, t, true));
      }
    }
    return out.stream();
  }

  /** What an entry of the matrix is made of in OSS: key (under the case directory) -> "type:content". */
  private static Map<String, String> objects(String name, String kind, String content) {
    Map<String, String> m = new TreeMap<>();
    switch (kind) {
      case "FILE", "PENDING" -> m.put(name, "file:" + content);
      case "SYMLINK" -> m.put(name, "link:" + content);
      case "DIR" -> {
        m.put(name + "/", "dir:");
        if (!content.isEmpty()) {
          m.put(name + "/inner", "file:" + content);
        }
      }
      default -> { }
    }
    return m;
  }

  private FileHandle make(String path, String kind, String content) {
    switch (kind) {
      case "FILE" -> writeFile(fs, path, utf8(content));
      case "SYMLINK" -> fs.symlink(content, path, USER);
      case "DIR" -> {
        fs.mkdir(path, 0755, USER);
        if (!content.isEmpty()) {
          writeFile(fs, path + "/inner", utf8(content));
        }
      }
      case "PENDING" -> {
        FileHandle h = fs.create(path, 0644, OpenFlags.READ_WRITE, false, USER);
        fs.write(h, 0, ByteBuffer.wrap(utf8(content))); // staged, not flushed: the create waits for its upload
        return h;
      }
      default -> { }
    }
    return null;
  }

  /** The objects under a prefix as key -> "type:content" (type from the ossfs mode metadata). */
  private Map<String, String> bucket(String prefix) {
    Map<String, String> m = new TreeMap<>();
    for (OSSObjectSummary o : gw.sdk.listObjectsV2(new ListObjectsV2Request(BUCKET).withPrefix(prefix)).getObjectSummaries()) {
      if (o.getKey().equals(prefix)) {
        continue;
      }
      int mode = Integer.parseInt(gw.sdk.getObjectMetadata(BUCKET, o.getKey()).getUserMetadata().get("mode"));
      String type = switch (mode & 0170000) {
        case 0100000 -> "file";
        case 0120000 -> "link";
        case 0040000 -> "dir";
        default -> "mode" + Integer.toOctalString(mode);
      };
      m.put(o.getKey().substring(prefix.length()), type + ":" + new String(gw.objectBytes(o.getKey()),
          java.nio.charset.StandardCharsets.UTF_8));
    }
    return m;
  }

  private static Errno expectedError(Kind k, Target t) {
    if (k == Kind.DIR) {
      return t == Target.ABSENT || t == Target.DIR ? null : Errno.ENOTDIR;
    }
    return t == Target.DIR ? Errno.EISDIR : null;
  }

  @ParameterizedTest(name = "{0} onto {1}, then remove: {2}")
  @MethodSource("matrix")
  void renameLeavesExactlyTheRenamedEntryInOss(Kind kind, Target target, boolean removeAfter) {
    String dir = "/case" + cases.incrementAndGet();
    String key = dir.substring(1) + "/";
    fs.mkdir(dir, 0755, USER);
    String srcContent = kind == Kind.SYMLINK ? "link-target" : "new " + kind.name().toLowerCase();
    String dstContent = target == Target.SYMLINK ? "old-link-target" : target == Target.DIR ? "" : "old " + target;
    FileHandle srcHandle = make(dir + "/src", kind.name(), srcContent);
    FileHandle dstHandle = make(dir + "/dst", target.name(), dstContent);
    Errno error = expectedError(kind, target);

    Map<String, String> expected = new TreeMap<>();
    if (error != null) {
      assertThatThrownBy(() -> fs.rename(dir + "/src", dir + "/dst"))
          .isInstanceOfSatisfying(FsException.class, e -> assertThat(e.errno()).isEqualTo(error));
      expected.putAll(objects("src", kind.name(), srcContent));
      expected.putAll(objects("dst", target.name(), dstContent));
    } else {
      fs.rename(dir + "/src", dir + "/dst");
      assertThatThrownBy(() -> fs.getattr(dir + "/src"))
          .isInstanceOfSatisfying(FsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT));
      assertThat(fs.getattr(dir + "/dst").type()).isEqualTo(typeOf(kind));
      if (kind == Kind.SYMLINK) {
        assertThat(fs.readlink(dir + "/dst")).isEqualTo(srcContent);
      } else if (kind != Kind.DIR && !removeAfter) { // reading opens and releases: that would upload a pending file
        assertThat(readFile(fs, dir + "/dst")).isEqualTo(utf8(srcContent));
      }
      if (removeAfter) { // before any upload of a pending file
        if (kind == Kind.DIR) {
          fs.unlink(dir + "/dst/inner");
          fs.rmdir(dir + "/dst");
        } else {
          fs.unlink(dir + "/dst");
        }
        assertThat(fs.readdir(dir).entries()).isEmpty();
      } else {
        expected.putAll(objects("dst", kind.name(), srcContent));
      }
    }
    release(srcHandle);
    release(dstHandle); // a replaced pending file must not be uploaded now
    assertThat(bucket(key)).as("objects under %s", key).isEqualTo(expected);
    VirtualFileSystem fresh = gw.mount();
    assertThat(fresh.readdir(dir).entries()).hasSize((int) expected.keySet().stream().filter(k -> !k.contains("/inner"))
        .count());
    if (error == null && !removeAfter) {
      assertThat(fresh.getattr(dir + "/dst").type()).isEqualTo(typeOf(kind));
    }
  }

  /** A name unlinked (or renamed over) while open is a new file when created again, not the old unlinked one. */
  @org.junit.jupiter.api.Test
  void aNameCreatedAgainAfterUnlinkWhileOpenIsANewFile() {
    fs.mkdir("/again", 0755, USER);
    FileHandle old = fs.create("/again/f", 0644, OpenFlags.READ_WRITE, false, USER);
    fs.write(old, 0, ByteBuffer.wrap(utf8("old")));
    fs.unlink("/again/f");
    FileHandle fresh = fs.create("/again/f", 0644, OpenFlags.READ_WRITE, false, USER);
    fs.write(fresh, 0, ByteBuffer.wrap(utf8("new")));
    fs.release(fresh);
    fs.release(old);
    assertThat(bucket("again/")).isEqualTo(Map.of("f", "file:new"));
  }

  /** rename(2) of a name onto itself: a no-op when it exists, ENOENT when it does not (found by ReferenceModelTest). */
  @org.junit.jupiter.api.Test
  void aNameRenamedOntoItselfStaysWhenItExistsAndIsEnoentWhenNot() {
    fs.mkdir("/self", 0755, USER);
    writeFile(fs, "/self/f", utf8("kept"));
    fs.rename("/self/f", "/self/f");
    fs.rename("/self", "/self");
    assertThat(bucket("self/")).isEqualTo(Map.of("f", "file:kept"));
    assertThatThrownBy(() -> fs.rename("/self/none", "/self/none")).isInstanceOfSatisfying(FsException.class,
        e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT));
    assertThatThrownBy(() -> fs.rename("/nodir/f", "/nodir/f")).isInstanceOfSatisfying(FsException.class,
        e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT));
  }

  private static FileType typeOf(Kind k) {
    return switch (k) {
      case FILE, PENDING -> FileType.REGULAR;
      case DIR -> FileType.DIRECTORY;
      case SYMLINK -> FileType.SYMLINK;
    };
  }

  private void release(FileHandle h) {
    if (h != null) {
      fs.release(h);
    }
  }
}
