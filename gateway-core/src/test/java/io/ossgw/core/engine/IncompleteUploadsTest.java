package io.ossgw.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.aliyun.oss.model.InitiateMultipartUploadRequest;
import com.aliyun.oss.model.ListMultipartUploadsRequest;
import com.aliyun.oss.model.MultipartUpload;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.core.write.OrphanUploads;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 9 item 3: multipart uploads a crashed run left behind are aborted at the next start of the same mount (same
 * state directory); uploads of other writers only with {@code incomplete_mpu_abort=}. Through the aliyun SDK against
 * the emulator; a "crash" is {@link Engine#crash()}: the engine is dropped without flushing or closing anything.
 */
class IncompleteUploadsTest extends GatewayFixture {
  /** Keys of the bucket's incomplete multipart uploads, as ListMultipartUploads shows them. */
  private List<String> uploads() {
    return gw.sdk.listMultipartUploads(new ListMultipartUploadsRequest(TestGateway.BUCKET)).getMultipartUploads()
        .stream().map(MultipartUpload::getKey).sorted().toList();
  }

  private void otherWriterStarts(String key) {
    gw.sdk.initiateMultipartUpload(new InitiateMultipartUploadRequest(TestGateway.BUCKET, key));
  }

  @Test
  void uploadInFlightAtACrashIsAbortedByTheNextStartLeavingOtherWritersAlone() {
    otherWriterStarts("other/x.bin");
    Engine first = Engine.start(gw.config("", "multipart_size=5"));
    VirtualFileSystem fs = first.fileSystem();
    FileHandle h = fs.create("/big.bin", 0644, OpenFlags.READ_WRITE, false, TestGateway.USER);
    byte[] data = new byte[12 << 20];
    new Random(3).nextBytes(data);
    TestGateway.writeAt(fs, h, 0, data); // streams parts 1 and 2: the upload is in flight
    assertEquals(List.of("big.bin", "other/x.bin"), uploads());

    first.crash();
    try (Engine second = Engine.start(gw.config("", "multipart_size=5"))) {
      assertEquals(List.of("other/x.bin"), uploads(), "our orphan aborted, the other writer's upload kept");
      assertEquals(1, gw.count("AbortMultipartUpload"));
    }
    try (Engine third = Engine.start(gw.config(""))) {
      assertEquals(List.of("other/x.bin"), uploads());
      assertEquals(1, gw.count("AbortMultipartUpload"), "the record was emptied: nothing aborted twice");
    }
  }

  /**
   * Issue 21 item 3: the reply to InitiateMultipartUpload is lost after OSS created the upload; the retry creates a
   * second one. The first, whose id the gateway never saw, is aborted as soon as the retry's id is known.
   */
  @Test
  void anUploadWhoseInitiateReplyWasLostIsAbortedOnceTheRetryHasItsId() {
    gw.emu.faults().dropRepliesNext(1, Set.of("InitiateMultipartUpload"));
    byte[] data = new byte[12 << 20];
    new Random(21).nextBytes(data);
    try (Engine e = Engine.start(gw.config("", "multipart_size=5"))) {
      TestGateway.writeFile(e.fileSystem(), "/lost.bin", data);
      assertEquals(1, gw.count("ListMultipartUploads"), "one listing of the key, after the retry");
      assertEquals(List.of(), uploads(), "no upload left open, before the unmount already");
    }
    assertArrayEquals(data, gw.objectBytes("lost.bin"));
    assertEquals(2, gw.count("InitiateMultipartUpload"));
    assertEquals(1, gw.count("AbortMultipartUpload"));
  }

  /** When every attempt loses its reply there is no id to measure from: the clean stop looks for them. */
  @Test
  void uploadsOfAnInitiateThatNeverGotAReplyAreAbortedAtACleanStop() {
    otherWriterStarts("other/x.bin");
    gw.emu.faults().dropRepliesNext(2, Set.of("InitiateMultipartUpload")); // retries=2: both attempts
    byte[] data = new byte[12 << 20];
    new Random(22).nextBytes(data);
    try (Engine e = Engine.start(gw.config("", "multipart_size=5"))) {
      VirtualFileSystem fs = e.fileSystem();
      FileHandle h = fs.create("/never.bin", 0644, OpenFlags.READ_WRITE, false, TestGateway.USER);
      try {
        TestGateway.writeAt(fs, h, 0, data);
        fs.flush(h); // the stream could not start; the whole file goes up now, with a new upload
      } finally {
        fs.release(h);
      }
      assertEquals(List.of("never.bin", "never.bin", "other/x.bin"), uploads(), "the two lost ones, until the stop");
    }
    assertEquals(List.of("other/x.bin"), uploads(), "aborted at the clean stop; the other writer's kept");
    assertArrayEquals(data, gw.objectBytes("never.bin"));
    assertEquals(2, gw.count("AbortMultipartUpload"));
  }

  @Test
  void completedUploadsLeaveNothingToAbort() {
    try (Engine first = Engine.start(gw.config("", "multipart_size=5"))) {
      byte[] data = new byte[12 << 20];
      TestGateway.writeFile(first.fileSystem(), "/done.bin", data);
    }
    try (Engine second = Engine.start(gw.config(""))) {
      assertEquals(List.of(), uploads());
      assertEquals(0, gw.count("AbortMultipartUpload"));
      assertEquals(12 << 20, second.fileSystem().getattr("/done.bin").size());
    }
  }

  @Test
  void incompleteMpuAbortAbortsOlderUploadsUnderThePrefixOnly() {
    otherWriterStarts("p/x.bin");
    otherWriterStarts("q/y.bin");
    try (Engine e = Engine.start(gw.config("p", "incomplete_mpu_abort=1D"))) {
      assertEquals(List.of("p/x.bin", "q/y.bin"), uploads(), "younger than a day: kept");
    }
    try (Engine e = Engine.start(gw.config("p"))) {
      assertEquals(List.of("p/x.bin", "q/y.bin"), uploads(), "off by default: other writers' uploads kept");
    }
    try (Engine e = Engine.start(gw.config("p", "incomplete_mpu_abort=all"))) {
      assertEquals(List.of("q/y.bin"), uploads(), "any age under p/, nothing outside it");
    }
  }

  @Test
  void ageTakesOssfsForm() {
    assertEquals(Duration.ZERO, OrphanUploads.parseAge("all"));
    assertEquals(Duration.ofHours(24), OrphanUploads.parseAge("24h"));
    assertEquals(Duration.ofDays(365 + 60 + 3).plusHours(4).plusMinutes(5).plusSeconds(6),
        OrphanUploads.parseAge("1Y2M3D4h5m6s"));
    assertThrows(IllegalArgumentException.class, () -> OrphanUploads.parseAge("3 days"));
    assertThrows(IllegalArgumentException.class, () -> OrphanUploads.parseAge("5"));
    assertEquals(Duration.ofHours(36), gw.config("", "incomplete_mpu_abort=1D12h").incompleteMpuAbort());
    assertThrows(IllegalArgumentException.class, () -> gw.config("", "incomplete_mpu_abort=soon"));
    assertEquals(null, gw.config("").incompleteMpuAbort());
  }
}
