package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.readFile;
import static io.ossgw.core.engine.TestGateway.utf8;
import static io.ossgw.core.engine.TestGateway.writeFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

/** OSS keys of up to 1,023 bytes (SEMANTICS.md, Names): files use all of them, directory markers need one for "/". */
class LongKeysTest extends EngineFixture {
  /** Four 250-byte directories: 1,004 bytes of key with their slashes. */
  private static final String DIRS = ("d".repeat(250) + "/").repeat(4);
  private static final String KEY_1023 = DIRS + "f".repeat(1023 - DIRS.length());

  private static void assertErrno(Runnable r, Errno errno) {
    assertThatThrownBy(r::run).isInstanceOfSatisfying(FsException.class, e -> assertThat(e.errno()).isEqualTo(errno));
  }

  @Test
  void anSdkWritten1023ByteKeyIsListedAndRead() {
    gw.sdk.putObject(BUCKET, KEY_1023, new ByteArrayInputStream(utf8("long key")));
    String path = "/" + KEY_1023;
    assertThat(fs.getattr(path).size()).isEqualTo(8); // cold: HEAD of the key
    String parent = "/" + DIRS.substring(0, DIRS.length() - 1);
    assertThat(fs.readdir(parent).entries()).extracting(DirEntry::name).containsExactly("f".repeat(1023 - DIRS.length()));
    assertThat(readFile(gw.mount(), path)).isEqualTo(utf8("long key"));
  }

  private void mkdirs() {
    String p = "";
    for (String d : DIRS.split("/")) {
      p += "/" + d;
      fs.mkdir(p, 0755, USER);
    }
  }

  @Test
  void aFileKeyMayBe1023BytesNotOneMore() {
    mkdirs();
    String path = "/" + KEY_1023;
    assertErrno(() -> fs.getattr(path), Errno.ENOENT); // missing, not too long: no LIST for a directory it cannot be
    writeFile(fs, path, utf8("x"));
    assertThat(gw.objectBytes(KEY_1023)).isEqualTo(utf8("x"));
    assertErrno(() -> writeFile(fs, path + "g", utf8("y")), Errno.ENAMETOOLONG);
    assertErrno(() -> fs.rename(path, path + "g"), Errno.ENAMETOOLONG);
    fs.rename(path, "/short");
    assertThat(gw.objectBytes("short")).isEqualTo(utf8("x"));
  }

  @Test
  void aDirectoryMarkerCountsItsSlash() {
    mkdirs();
    String dir = "/" + KEY_1023.substring(0, 1022); // marker "...\/" = 1,023 bytes
    fs.mkdir(dir, 0755, USER);
    assertThat(gw.sdk.doesObjectExist(BUCKET, KEY_1023.substring(0, 1022) + "/")).isTrue();
    assertErrno(() -> fs.mkdir("/" + KEY_1023, 0755, USER), Errno.ENAMETOOLONG);
  }
}
