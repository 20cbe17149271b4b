package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.readFile;
import static io.ossgw.core.engine.TestGateway.utf8;
import static io.ossgw.core.engine.TestGateway.writeFile;
import static org.assertj.core.api.Assertions.assertThat;

import com.aliyun.oss.model.AppendObjectRequest;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Writes that keep what OSS already has: appends (AppendObject on Appendable objects, UploadPartCopy of the existing
 * bytes on Normal ones) and {@code max_dirty_data} forced uploads. Every test checks the bytes in the bucket and the
 * requests that put them there.
 */
class AppendAndDirtyDataTest extends GatewayFixture {
  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** Opens without truncation, writes {@code tail} at the current end, closes. */
  private static void append(VirtualFileSystem fs, String path, byte[] tail) {
    long size = fs.getattr(path).size();
    FileHandle h = fs.open(path, OpenFlags.READ_WRITE, USER);
    try {
      TestGateway.writeAt(fs, h, size, tail);
      fs.flush(h);
    } finally {
      fs.release(h);
    }
  }

  private void sdkAppend(String key, long position, byte[] data) {
    AppendObjectRequest req = new AppendObjectRequest(BUCKET, key, new ByteArrayInputStream(data));
    req.setPosition(position);
    gw.sdk.appendObject(req);
  }

  @Test
  void appendToAnAppendableObjectSendsOnlyTheNewBytesWithAppendObject() {
    byte[] first = utf8("line 1\n");
    sdkAppend("app.log", 0, first);
    VirtualFileSystem fs = gw.mount();
    fs.getattr("/app.log");
    byte[] second = random(300 * 1024, 1);
    byte[] third = utf8("line 3\n");
    gw.resetCounters();
    append(fs, "/app.log", second);
    append(fs, "/app.log", third);
    assertThat(gw.count("AppendObject")).isEqualTo(2);
    assertThat(gw.count("GetObject") + gw.count("PutObject") + gw.count("UploadPartCopy")).isZero();
    byte[] all = concat(first, second, third);
    assertThat(gw.objectBytes("app.log")).isEqualTo(all);
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "app.log").getObjectType()).isEqualTo("Appendable");
    assertThat(fs.getattr("/app.log").size()).isEqualTo(all.length);
    VirtualFileSystem cold = gw.mount();
    assertThat(readFile(cold, "/app.log")).isEqualTo(all);
    assertThat(cold.getattr("/app.log").mtime()).isAfterOrEqualTo(fs.getattr("/app.log").mtime().minusSeconds(1));
  }

  /**
   * The reply to an AppendObject lost after OSS appended (the emulator carries it out and resets the connection): the
   * retry sees the object already that long with the appended bytes (HeadObject, GetObject) and does not append them
   * twice; a lost attempt that was not carried out (a 503) is sent again.
   */
  @Test
  void anAppendWhoseReplyWasLostIsNeitherRepeatedNorAnError() {
    byte[] first = utf8("line 1\n");
    sdkAppend("lost.log", 0, first);
    VirtualFileSystem fs = gw.mount();
    fs.getattr("/lost.log");
    byte[] second = random(300 * 1024, 2);
    gw.resetCounters();
    gw.emu.faults().dropRepliesNext(1, java.util.Set.of("AppendObject"));
    append(fs, "/lost.log", second);
    assertThat(gw.count("AppendObject")).isEqualTo(1);
    assertThat(gw.count("HeadObject")).isEqualTo(1);
    assertThat(gw.objectBytes("lost.log")).isEqualTo(concat(first, second));

    byte[] third = utf8("line 3\n");
    gw.resetCounters();
    gw.emu.faults().failNext(1, 503, "ServiceUnavailable", java.util.Set.of("AppendObject"));
    append(fs, "/lost.log", third);
    assertThat(gw.count("AppendObject")).isEqualTo(2); // the refused one, then the one OSS carried out
    byte[] all = concat(first, second, third);
    assertThat(gw.objectBytes("lost.log")).isEqualTo(all);
    assertThat(fs.getattr("/lost.log").size()).isEqualTo(all.length);
    assertThat(readFile(gw.mount(), "/lost.log")).isEqualTo(all);
  }

  @Test
  void aChmodWhileAppendingRewritesAnAppendableObjectWhole() {
    byte[] first = random(1000, 2);
    sdkAppend("app2.log", 0, first);
    VirtualFileSystem fs = gw.mount();
    byte[] tail = random(500, 3);
    FileHandle h = fs.open("/app2.log", OpenFlags.READ_WRITE, USER);
    fs.write(h, first.length, ByteBuffer.wrap(tail));
    fs.setattr("/app2.log", SetAttr.mode(0600), h, USER);
    gw.resetCounters();
    fs.release(h);
    assertThat(gw.count("AppendObject")).isZero();
    assertThat(gw.count("PutObject")).isEqualTo(1);
    assertThat(gw.objectBytes("app2.log")).isEqualTo(concat(first, tail));
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "app2.log").getUserMetadata().get("mode")).isEqualTo(Integer.toString(0100600));
  }

  @Test
  void appendToANormalObjectCopiesTheExistingBytesServerSide() {
    VirtualFileSystem fs = gw.mount();
    byte[] head = random(700 * 1024, 4);
    writeFile(fs, "/n.bin", head);
    byte[] tail = random(200 * 1024 + 7, 5);
    gw.resetCounters();
    append(fs, "/n.bin", tail);
    assertThat(gw.count("InitiateMultipartUpload")).isEqualTo(1);
    assertThat(gw.count("UploadPartCopy")).isEqualTo(1);
    assertThat(gw.count("UploadPart")).isEqualTo(1);
    assertThat(gw.count("CompleteMultipartUpload")).isEqualTo(1);
    assertThat(gw.count("GetObject") + gw.count("PutObject")).isZero();
    byte[] all = concat(head, tail);
    assertThat(gw.objectBytes("n.bin")).isEqualTo(all);
    assertThat(readFile(gw.mount(), "/n.bin")).isEqualTo(all);
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "n.bin").getUserMetadata()).containsKey("mode");
  }

  @Test
  void nomixuploadAppendsByUploadingTheWholeFile() {
    VirtualFileSystem fs = gw.mount("nomixupload");
    byte[] head = random(700 * 1024, 10);
    writeFile(fs, "/nm.bin", head);
    byte[] tail = random(1000, 11);
    gw.resetCounters();
    append(fs, "/nm.bin", tail);
    assertThat(gw.count("UploadPartCopy")).isZero();
    assertThat(gw.count("GetObject")).isPositive();
    assertThat(gw.count("PutObject")).isEqualTo(1);
    assertThat(Arrays.equals(gw.objectBytes("nm.bin"), concat(head, tail))).isTrue();
  }

  @Test
  void anAppendToAnObjectReplacedSinceTheOpenFailsInsteadOfMixingVersions() {
    VirtualFileSystem fs = gw.mount();
    writeFile(fs, "/x.bin", random(700 * 1024, 12));
    FileHandle h = fs.open("/x.bin", OpenFlags.READ_WRITE, USER);
    fs.write(h, 700 * 1024, ByteBuffer.wrap(random(1000, 13)));
    byte[] theirs = random(800 * 1024, 14);
    gw.sdk.putObject(BUCKET, "x.bin", new ByteArrayInputStream(theirs)); // another client replaces it meanwhile
    try {
      fs.flush(h);
      throw new AssertionError("the flush should fail");
    } catch (io.ossgw.core.vfs.FsException e) {
      assertThat(e.errno()).isEqualTo(io.ossgw.core.vfs.Errno.EIO);
    } finally {
      fs.release(h);
    }
    assertThat(gw.count("AbortMultipartUpload")).as("the copy upload was aborted").isPositive();
    assertThat(Arrays.equals(gw.objectBytes("x.bin"), theirs)).as("their version stays, unmixed").isTrue();
  }

  @Test
  void appendToASmallNormalObjectDownloadsAndUploadsItAgain() {
    VirtualFileSystem fs = gw.mount();
    writeFile(fs, "/s.txt", utf8("small\n"));
    gw.resetCounters();
    append(fs, "/s.txt", utf8("more\n"));
    assertThat(gw.count("GetObject")).isEqualTo(1);
    assertThat(gw.count("PutObject")).isEqualTo(1);
    assertThat(gw.count("UploadPartCopy") + gw.count("AppendObject")).isZero();
    assertThat(gw.objectBytes("s.txt")).isEqualTo(utf8("small\nmore\n"));
  }

  @Test
  void anOverwriteAfterUnchangedLeadingBytesCopiesThemAndUploadsTheRest() {
    VirtualFileSystem fs = gw.mount();
    byte[] data = random(600 * 1024, 6);
    writeFile(fs, "/mid.bin", data);
    byte[] patch = random(1000, 7);
    FileHandle h = fs.open("/mid.bin", OpenFlags.READ_WRITE, USER);
    gw.resetCounters();
    fs.write(h, 300 * 1024, ByteBuffer.wrap(patch));
    fs.release(h);
    byte[] expected = data.clone();
    System.arraycopy(patch, 0, expected, 300 * 1024, patch.length);
    assertThat(gw.count("UploadPartCopy")).isEqualTo(1);
    assertThat(gw.count("GetObject")).as("only the bytes after the patch are loaded").isEqualTo(1);
    assertThat(gw.objectBytes("mid.bin")).isEqualTo(expected);
  }

  @Test
  void maxDirtyDataUploadsWhatWasWrittenSoFarAndWritingGoesOn() {
    VirtualFileSystem fs = gw.mount("max_dirty_data=50", "multipart_size=5");
    byte[] data = random(57 * 1024 * 1024, 8);
    int forcedAt = 50 * 1024 * 1024;
    FileHandle h = fs.create("/dirty.bin", 0644, OpenFlags.READ_WRITE, false, USER);
    int piece = 1024 * 1024;
    int off = 0;
    for (; off < forcedAt; off += piece) {
      assertThat(gw.sdk.doesObjectExist(BUCKET, "dirty.bin")).as("nothing uploaded before 50 MB").isFalse();
      fs.write(h, off, ByteBuffer.wrap(data, off, piece));
    }
    // 50 MB of dirty data: the file is in OSS, with exactly those bytes, while still open
    assertThat(Arrays.equals(gw.objectBytes("dirty.bin"), Arrays.copyOf(data, forcedAt))).isTrue();
    gw.resetCounters();
    ByteBuffer early = ByteBuffer.allocate(4096);
    assertThat(fs.read(h, 1000, early)).isEqualTo(4096);
    assertThat(Arrays.equals(early.array(), Arrays.copyOfRange(data, 1000, 5096))).isTrue();
    assertThat(gw.count("GetObject")).as("uploaded bytes left the local spool: read back from OSS").isEqualTo(1);
    gw.resetCounters();
    for (; off < data.length; off += piece) {
      fs.write(h, off, ByteBuffer.wrap(data, off, Math.min(piece, data.length - off)));
    }
    fs.release(h);
    assertThat(gw.count("UploadPartCopy")).as("the first 50 MB are copied, not sent again").isEqualTo(1);
    assertThat(gw.count("UploadPart")).isEqualTo(2); // 7 MiB of new bytes in 5 MiB parts
    assertThat(gw.count("GetObject")).isZero();
    assertThat(Arrays.equals(gw.objectBytes("dirty.bin"), data)).as("all 57 MB").isTrue();
  }

  @Test
  void maxDirtyDataIsOffWithNomultipart() {
    VirtualFileSystem fs = gw.mount("max_dirty_data=50", "nomultipart");
    byte[] data = random(51 * 1024 * 1024, 9);
    FileHandle h = fs.create("/one.bin", 0644, OpenFlags.READ_WRITE, false, USER);
    for (int off = 0; off < data.length; off += 1024 * 1024) {
      fs.write(h, off, ByteBuffer.wrap(data, off, Math.min(1024 * 1024, data.length - off)));
    }
    assertThat(gw.sdk.doesObjectExist(BUCKET, "one.bin")).isFalse();
    gw.resetCounters();
    fs.release(h);
    assertThat(gw.count("PutObject")).isEqualTo(1);
    assertThat(gw.objectBytes("one.bin")).isEqualTo(data);
  }
}
