package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.model.AbortMultipartUploadRequest;
import io.ossgw.core.store.ForwardingObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The reply to CompleteMultipartUpload lost after OSS completed the upload (the emulator carries the request out and
 * resets the connection): the retry answers NoSuchUpload, and the close must still succeed, with the bytes in OSS and
 * the engine showing them (RetryingObjectStore / LostCompleteReplies, found by {@link ReferenceModelTest}). An upload
 * that another client aborted in between must still fail that close, the old object left as it was.
 */
class LostCompleteReplyTest extends GatewayFixture {
  private static byte[] random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void aStreamedUploadWhoseCompleteReplyWasLostCloses() {
    VirtualFileSystem fs = gw.mount("multipart_size=5");
    byte[] data = random(12 << 20, 1);
    FileHandle h = fs.create("/big.bin", 0644, OpenFlags.READ_WRITE, false, USER);
    TestGateway.writeAt(fs, h, 0, data);
    gw.resetCounters();
    gw.emu.faults().dropRepliesNext(1, Set.of("CompleteMultipartUpload"));
    fs.flush(h); // the last close: no error
    fs.release(h);

    assertThat(gw.count("CompleteMultipartUpload")).isEqualTo(2); // carried out, then the retry's NoSuchUpload
    assertThat(gw.count("PutObject") + gw.count("InitiateMultipartUpload")).isZero(); // not sent again
    assertThat(gw.count("HeadObject")).isEqualTo(1); // the check that the object is this upload's
    assertThat(gw.objectBytes("big.bin")).isEqualTo(data);
    assertThat(TestGateway.readFile(fs, "/big.bin")).isEqualTo(data);
    gw.closeEngines();
    assertThat(TestGateway.readFile(gw.mount(), "/big.bin")).isEqualTo(data);
  }

  @Test
  void anAppendThroughUploadPartCopyWhoseCompleteReplyWasLostCloses() {
    VirtualFileSystem fs = gw.mount("multipart_size=5");
    byte[] first = random(6 << 20, 2);
    TestGateway.writeFile(fs, "/log.bin", first);
    byte[] tail = random(1 << 20, 3);
    gw.resetCounters();
    gw.emu.faults().dropRepliesNext(1, Set.of("CompleteMultipartUpload"));
    FileHandle h = fs.open("/log.bin", OpenFlags.READ_WRITE, USER);
    try {
      TestGateway.writeAt(fs, h, first.length, tail);
      fs.flush(h);
    } finally {
      fs.release(h);
    }

    byte[] whole = Arrays.copyOf(first, first.length + tail.length);
    System.arraycopy(tail, 0, whole, first.length, tail.length);
    assertThat(gw.count("UploadPartCopy")).isPositive();
    assertThat(gw.count("PutObject")).isZero(); // not sent again as a whole file
    assertThat(gw.objectBytes("log.bin")).isEqualTo(whole);
    assertThat(TestGateway.readFile(fs, "/log.bin")).isEqualTo(whole);
  }

  @Test
  void anUploadAbortedByAnotherClientBeforeTheRetryStillFailsTheClose() {
    byte[] old = random(6 << 20, 4);
    TestGateway.writeFile(gw.mount("multipart_size=5"), "/f.bin", old);
    gw.closeEngines();
    AtomicBoolean first = new AtomicBoolean(true);
    VirtualFileSystem fs = gw.mountThrough(s -> new ForwardingObjectStore(s) {
      @Override
      public WriteResult completeMultipartUpload(String key, String uploadId, List<PartETag> parts) {
        if (first.getAndSet(false)) { // another client aborts it, and this attempt's outcome is unknown
          gw.sdk.abortMultipartUpload(new AbortMultipartUploadRequest(TestGateway.BUCKET, key, uploadId));
          throw new StoreException(StoreErrorKind.TRANSIENT, "InternalError", 500, null, "for the test", null);
        }
        return super.completeMultipartUpload(key, uploadId, parts);
      }
    }, "multipart_size=5");
    byte[] data = random(6 << 20, 5); // the same size and part count as the old object
    FileHandle h = fs.open("/f.bin", OpenFlags.READ_WRITE, USER);
    TestGateway.writeAt(fs, h, 0, data);

    assertThatThrownBy(() -> fs.flush(h)).isInstanceOfSatisfying(FsException.class,
        e -> assertThat(e.errno()).isEqualTo(Errno.EIO));
    assertThat(gw.objectBytes("f.bin")).isEqualTo(old); // not taken for this upload's object
    fs.release(h); // the handle's bytes are still to be uploaded: the last release sends them again, and they land
    assertThat(gw.objectBytes("f.bin")).isEqualTo(data);
  }
}
