package io.ossgw.core.store.lean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.aliyun.oss.OSS;
import com.aliyun.oss.model.ObjectMetadata;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.UploadListing;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.core.util.Crc64;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * InitiateMultipartUpload, UploadPartCopy, CompleteMultipartUpload and AbortMultipartUpload on the lean client against
 * the emulator (V4 verified): aliyun-sdk-oss reads the object a lean upload made (bytes, Content-Type,
 * {@code x-oss-meta-*}, the multipart ETag); parts handed over out of order are completed in order; parts copied from
 * ranges of another object (its key escaped, its ETag required) make its bytes; a part CRC that does not match the
 * object's is a transient InconsistentCRC; an aborted upload is gone; and a Complete whose reply is lost on a reused
 * connection is not sent again by the client (the retry layer decides: LostCompleteReplies); all without building an
 * SDK client.
 */
class LeanMultipartTest extends LeanEmulatorTest {
  LeanMultipartTest() {
    super("mpu");
  }

  /** Three parts (two of 100 KiB, one of 5,000 bytes) uploaded under {@code key}; returned out of order. */
  List<PartETag> parts(String key, String uploadId, ByteArrayOutputStream all) {
    List<PartETag> parts = new ArrayList<>();
    int[] sizes = {100 * 1024, 100 * 1024, 5000};
    for (int i = 0; i < sizes.length; i++) {
      byte[] b = random(sizes[i], key.hashCode() + i);
      all.writeBytes(b);
      parts.add(store.uploadPart(key, uploadId, i + 1, ContentSource.ofBytes(b)));
    }
    return List.of(parts.get(2), parts.get(0), parts.get(1));
  }

  @Test
  void anUploadMadeOnTheLeanPathReadsBackThroughTheSdk() throws IOException {
    String key = "dir/b ig+ü.bin";
    emu.counters().reset();
    String id = store.initiateMultipartUpload(key, new WriteMeta("text/x-parts", Map.of("mode", "33188", "uid", "7")));
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    WriteResult w = store.completeMultipartUpload(key, id, parts(key, id, all));

    try (var o = sdk.getObject("mpu", key)) {
      assertThat(o.getObjectContent().readAllBytes()).isEqualTo(all.toByteArray());
    }
    ObjectMetadata md = sdk.getObjectMetadata("mpu", key);
    assertThat(md.getContentType()).isEqualTo("text/x-parts");
    assertThat(md.getUserMetadata()).containsEntry("mode", "33188").containsEntry("uid", "7");
    assertThat(md.getObjectType()).isEqualTo("Multipart");
    assertThat(md.getETag()).isEqualTo(w.etag()).endsWith("-3");
    byte[] bytes = all.toByteArray();
    assertThat(w.crc64()).isEqualTo(Long.toUnsignedString(Crc64.update(0, bytes, 0, bytes.length)));
    assertThat(emu.counters().get("InitiateMultipartUpload")).isEqualTo(1);
    assertThat(emu.counters().get("CompleteMultipartUpload")).isEqualTo(1);
    assertThat(sdkStore.clientsBuilt()).isZero();
  }

  @Test
  void uploadPartCopyBuildsAnObjectFromRangesOfAnotherAndChecksItsEtag() throws IOException {
    String src = "src/a&b c+ü.bin";
    byte[] data = random(300 * 1024 + 17, 99);
    sdk.putObject("mpu", src, new java.io.ByteArrayInputStream(data));
    String etag = sdk.getObjectMetadata("mpu", src).getETag();
    String dst = "dst/copied.bin";
    String id = store.initiateMultipartUpload(dst, new WriteMeta(null, Map.of()));
    long[] cuts = {0, 100 * 1024, 200 * 1024, data.length};
    List<PartETag> parts = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      PartETag p = store.uploadPartCopy(src, etag, cuts[i], cuts[i + 1] - cuts[i], dst, id, i + 1);
      assertThat(p.size()).isEqualTo(cuts[i + 1] - cuts[i]);
      assertThat(p.crc64()).isNull(); // unknown, as on the SDK path: no whole-object check with copied parts
      parts.add(p);
    }
    assertThatThrownBy(() -> store.uploadPartCopy(src, "0123456789abcdef0123456789ABCDEF", 0, 10, dst, id, 4))
        .isInstanceOf(StoreException.class)
        .satisfies(e -> assertThat(((StoreException) e).kind()).isEqualTo(StoreErrorKind.PRECONDITION_FAILED));
    store.completeMultipartUpload(dst, id, parts);
    try (var o = sdk.getObject("mpu", dst)) {
      assertThat(o.getObjectContent().readAllBytes()).isEqualTo(data);
    }
    assertThat(sdkStore.clientsBuilt()).isZero();
  }

  @Test
  void aPartCrcThatDoesNotMatchTheObjectIsATransientInconsistentCrc() {
    String key = "crc.bin";
    String id = store.initiateMultipartUpload(key, new WriteMeta(null, Map.of()));
    List<PartETag> parts = new ArrayList<>(parts(key, id, new ByteArrayOutputStream()));
    PartETag p = parts.get(0);
    parts.set(0, new PartETag(p.partNumber(), p.etag(), p.size(), p.crc64() ^ 1));
    assertThatThrownBy(() -> store.completeMultipartUpload(key, id, parts)).isInstanceOf(StoreException.class)
        .satisfies(e -> {
          assertThat(((StoreException) e).kind()).isEqualTo(StoreErrorKind.TRANSIENT);
          assertThat(((StoreException) e).code()).isEqualTo("InconsistentCRC");
          assertThat(e).hasMessageContaining("CompleteMultipartUpload crc.bin");
        });
  }

  @Test
  void anAbortedUploadIsGoneAndASecondAbortIsNoError() {
    String key = "aborted.bin";
    String id = store.initiateMultipartUpload(key, new WriteMeta(null, Map.of()));
    List<PartETag> parts = parts(key, id, new ByteArrayOutputStream());
    store.abortMultipartUpload(key, id);
    store.abortMultipartUpload(key, id);
    assertThatThrownBy(() -> store.completeMultipartUpload(key, id, parts)).isInstanceOf(StoreException.class)
        .satisfies(e -> assertThat(((StoreException) e).kind()).isEqualTo(StoreErrorKind.NO_SUCH_UPLOAD));
    assertThat(sdk.doesObjectExist("mpu", key)).isFalse();
    assertThat(sdkStore.clientsBuilt()).isZero();
  }

  @Test
  void listMultipartUploadsPagesByKeyAndUploadIdAndDecodesTheKeys() {
    List<String> keys = List.of("list/a b+c.bin", "list/a b+c.bin", "list/tab\there.bin", "list/ü/日本.bin",
        "list/ü/日本.bin");
    List<UploadListing.Upload> expected = new ArrayList<>();
    for (String k : keys) {
      expected.add(new UploadListing.Upload(k, store.initiateMultipartUpload(k, new WriteMeta(null, Map.of())), null));
    }
    store.initiateMultipartUpload("other/x.bin", new WriteMeta(null, Map.of())); // outside the prefix
    expected.sort(Comparator.comparing(UploadListing.Upload::key).thenComparing(UploadListing.Upload::uploadId));
    emu.counters().reset();

    List<UploadListing.Upload> listed = new ArrayList<>();
    List<Integer> pageSizes = new ArrayList<>();
    String keyMarker = null;
    String idMarker = null;
    UploadListing page;
    do {
      page = store.listMultipartUploads("list/", keyMarker, idMarker, 2);
      listed.addAll(page.uploads());
      pageSizes.add(page.uploads().size());
      keyMarker = page.nextKeyMarker();
      idMarker = page.nextUploadIdMarker();
    } while (page.truncated());

    assertThat(pageSizes).containsExactly(2, 2, 1); // the second page ends between the two uploads of one key
    assertThat(listed).extracting(UploadListing.Upload::key, UploadListing.Upload::uploadId)
        .containsExactlyElementsOf(expected.stream().map(u -> tuple(u.key(), u.uploadId())).toList());
    assertThat(listed).allSatisfy(u -> assertThat(u.initiated()).isNotNull());
    assertThat(page.nextKeyMarker()).isNull();
    assertThat(emu.counters().get("ListMultipartUploads")).isEqualTo(3);
    assertThat(sdkStore.clientsBuilt()).isZero();
    for (UploadListing.Upload u : listed) {
      store.abortMultipartUpload(u.key(), u.uploadId());
    }
    assertThat(store.listMultipartUploads("list/", null, null, 1000).uploads()).isEmpty();
  }

  @Test
  void aReplyThatIsNotAnUploadListingIsAMalformedResponse() {
    assertThatThrownBy(() -> LeanMultipart.parseUploads("<ListBucketResult></ListBucketResult>", "what"))
        .isInstanceOf(StoreException.class).hasMessageContaining("what: no ListMultipartUploadsResult");
    assertThatThrownBy(() -> LeanMultipart.parseUploads(
        "<ListMultipartUploadsResult><Upload><Key>k</Key></Upload></ListMultipartUploadsResult>", "what"))
        .isInstanceOf(StoreException.class).hasMessageContaining("without its Key or UploadId");
  }

  @Test
  void aCompleteWhoseReplyIsLostIsNotSentAgainByTheClient() {
    String key = "lost-reply.bin";
    String id = store.initiateMultipartUpload(key, new WriteMeta(null, Map.of()));
    List<PartETag> parts = parts(key, id, new ByteArrayOutputStream()); // the connection is now a reused one
    emu.counters().reset();
    emu.faults().dropRepliesNext(1, Set.of("CompleteMultipartUpload"));
    assertThatThrownBy(() -> store.completeMultipartUpload(key, id, parts)).isInstanceOf(StoreException.class)
        .satisfies(e -> assertThat(((StoreException) e).kind()).isEqualTo(StoreErrorKind.TRANSIENT));
    assertThat(emu.counters().get("CompleteMultipartUpload")).isEqualTo(1);
    assertThat(sdk.doesObjectExist("mpu", key)).isTrue(); // done by OSS: the retry layer's HEAD finds it
  }

  @Test
  void metadataValuesThatAreNotAsciiAreInitiatedLeanAndOnlyNamesThatAreNotGoThroughTheSdk() {
    EngineConfig c = config(emu.endpoint(), "mpu", new Credentials("ak", "sk"));
    AliyunObjectStore own = new AliyunObjectStore(c);
    try (var s = LeanDataStore.wrap(own, c)) {
      String key = "utf8-meta.bin";
      String id = s.initiateMultipartUpload(key, new WriteMeta(null, Map.of("note", "naïve")));
      assertThat(own.clientsBuilt()).isZero();
      s.completeMultipartUpload(key, id, parts(key, id, new ByteArrayOutputStream()));
      assertThat(sdk.getObjectMetadata("mpu", key).getUserMetadata()).containsEntry("note", "naïve");
      s.abortMultipartUpload(key, s.initiateMultipartUpload(key, new WriteMeta(null, Map.of("nöte", "x"))));
      assertThat(own.clientsBuilt()).isEqualTo(1);
    }
  }

  @Test
  void theCompleteBodyListsThePartsInOrderWithQuotedEtags() {
    byte[] body = LeanMultipart.completeBody(List.of(new PartETag(1, "A1", 5), new PartETag(2, "\"b&2\"", 5)));
    assertThat(new String(body, java.nio.charset.StandardCharsets.UTF_8)).endsWith("<CompleteMultipartUpload>"
        + "<Part><PartNumber>1</PartNumber><ETag>&quot;A1&quot;</ETag></Part>"
        + "<Part><PartNumber>2</PartNumber><ETag>&quot;b&amp;2&quot;</ETag></Part></CompleteMultipartUpload>");
  }
}
