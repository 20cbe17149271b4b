package io.ossgw.core.meta;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.store.ListedObject;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileType;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PosixMetaTest {
  private final PosixMeta posix = new PosixMeta(1000, 1000, null, null, 0);
  private final Instant lm = Instant.parse("2026-01-02T03:04:05Z");

  private ObjectInfo info(String key, Map<String, String> meta, String contentType, long size) {
    return new ObjectInfo(key, size, "ETAG", lm, "Normal", contentType, meta, -1);
  }

  @Test
  void readsOssfsMetadataAsWrittenByOssfs() {
    // headers observed on an ossfs mount after chmod 600 and touch -d (reference/ossfs-compat.md §3.1)
    FileAttr a = posix.fromHead("a.txt", info("a.txt",
        Map.of("mode", "33152", "uid", "0", "gid", "0", "mtime", "1577934245", "atime", "1577934245", "ctime", "1577934245"),
        "text/plain", 6));
    assertThat(a.type()).isEqualTo(FileType.REGULAR);
    assertThat(a.mode()).isEqualTo(0600);
    assertThat(a.uid()).isZero();
    assertThat(a.mtime()).isEqualTo(Instant.ofEpochSecond(1577934245));
    assertThat(a.size()).isEqualTo(6);
    assertThat(a.etag()).isEqualTo("ETAG");
  }

  @Test
  void objectsWithoutMetadataGetOssfsDefaults() {
    FileAttr f = posix.fromHead("x/y.bin", info("x/y.bin", Map.of(), null, 10));
    assertThat(f.mode()).isEqualTo(0640);
    assertThat(f.uid()).isEqualTo(1000);
    assertThat(f.mtime()).isEqualTo(lm);
    FileAttr d = posix.fromHead("x/", info("x/", Map.of(), null, 0));
    assertThat(d.type()).isEqualTo(FileType.DIRECTORY);
    assertThat(d.mode()).isEqualTo(0750);
    assertThat(d.size()).isEqualTo(FileAttr.DIRECTORY_SIZE);
    FileAttr listed = posix.fromListing(new ListedObject("x/z", 5, "E", lm, "Normal"));
    assertThat(listed.mode()).isEqualTo(0640);
    assertThat(listed.mtime()).isEqualTo(lm);
  }

  @Test
  void directoryAndSymlinkTypesComeFromModeOrContentType() {
    assertThat(posix.fromHead("old", info("old", Map.of("mode", "16877"), null, 0)).type()).isEqualTo(FileType.DIRECTORY);
    assertThat(posix.fromHead("old2", info("old2", Map.of(), "application/x-directory", 0)).type()).isEqualTo(FileType.DIRECTORY);
    FileAttr link = posix.fromHead("l", info("l", Map.of("mode", "41471"), null, 4));
    assertThat(link.type()).isEqualTo(FileType.SYMLINK);
    assertThat(link.stMode()).isEqualTo(0120777);
  }

  @Test
  void overridesAndUmaskApply() {
    PosixMeta o = new PosixMeta(1000, 1000, 7, 8, 0027);
    FileAttr a = o.fromHead("f", info("f", Map.of("mode", "33279", "uid", "1", "gid", "2"), null, 0));
    assertThat(a.uid()).isEqualTo(7);
    assertThat(a.gid()).isEqualTo(8);
    assertThat(a.mode()).isEqualTo(0750);
  }

  @Test
  void timesRoundTripWithNanoseconds() {
    Instant t = Instant.ofEpochSecond(1700000000, 123456789);
    assertThat(PosixMeta.formatTime(t)).isEqualTo("1700000000.123456789");
    assertThat(PosixMeta.time("1700000000.123456789", null)).isEqualTo(t);
    assertThat(PosixMeta.time("1700000000.5", null)).isEqualTo(Instant.ofEpochSecond(1700000000, 500_000_000));
    assertThat(PosixMeta.formatTime(Instant.ofEpochSecond(5))).isEqualTo("5");
    // nanoseconds zero-padded to nine digits, as ossfs's str(timespec)
    assertThat(PosixMeta.formatTime(Instant.ofEpochSecond(1700000000, 5))).isEqualTo("1700000000.000000005");
    assertThat(PosixMeta.formatTime(Instant.ofEpochSecond(1700000000, 120_000_000))).isEqualTo("1700000000.120000000");
    assertThat(PosixMeta.time(PosixMeta.formatTime(Instant.ofEpochSecond(3, 7)), null)).isEqualTo(Instant.ofEpochSecond(3, 7));
    assertThat(PosixMeta.time("garbage", lm)).isEqualTo(lm);
  }

  @Test
  void encodeWritesDecimalModeWithTypeBits() {
    FileAttr a = new FileAttr(5, FileType.REGULAR, 0644, 1, 2, 3, lm, lm, lm, null);
    Map<String, String> m = PosixMeta.encode(a, Map.of("xattr", "keep"));
    assertThat(m).containsEntry("mode", "33188").containsEntry("uid", "1").containsEntry("gid", "2")
        .containsEntry("mtime", Long.toString(lm.getEpochSecond())).containsEntry("xattr", "keep");
  }

  @Test
  void symlinkTargetHeaderRoundTrips() {
    String target = "../dir with space/ü+%.txt";
    String enc = PosixMeta.encodeSymlinkTarget(target);
    assertThat(enc).startsWith("header:" + target.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + ":");
    assertThat(enc).doesNotContain(" ");
    assertThat(PosixMeta.decodeSymlinkTarget(enc)).isEqualTo(target);
    assertThat(PosixMeta.decodeSymlinkTarget("body::")).isNull();
  }

  @Test
  void inodesAreStableAndIgnoreTrailingSlash() {
    assertThat(Inodes.of("a/b/")).isEqualTo(Inodes.of("a/b"));
    assertThat(Inodes.of("a/b")).isNotEqualTo(Inodes.of("a/c")).isGreaterThan(1);
  }
}
