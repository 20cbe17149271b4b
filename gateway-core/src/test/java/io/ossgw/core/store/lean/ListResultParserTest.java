package io.ossgw.core.store.lean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.store.ListPage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pieces of the lean metadata path that need no server: the hand date parsers against the JDK's, and the listing
 * parser's refusal of DTDs and external entities (the wire behaviour is AliyunObjectStoreTest's, against the
 * emulator, compared with the SDK path).
 */
class ListResultParserTest {
  @Test
  void handDateParsersAgreeWithTheJdk() {
    SplittableRandom rnd = new SplittableRandom(14);
    DateTimeFormatter iso = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    for (int i = 0; i < 20_000; i++) {
      Instant t = Instant.ofEpochMilli(rnd.nextLong(0, 4_102_444_800_000L)); // 1970..2100
      assertThat(ListResultParser.iso8601(iso.format(t))).isEqualTo(t);
      Instant s = Instant.ofEpochSecond(t.getEpochSecond());
      String http = DateTimeFormatter.RFC_1123_DATE_TIME.format(s.atOffset(ZoneOffset.UTC));
      if (http.length() == 29) { // the JDK writes days 1-9 with one digit; OSS sends two
        assertThat(LeanDataStore.rfc1123(http)).as(http).isEqualTo(s);
      }
    }
    assertThat(LeanDataStore.rfc1123("Wed, 05 Nov 2026 22:45:51 GMT")).isEqualTo(Instant.parse("2026-11-05T22:45:51Z"));
    assertThat(LeanDataStore.rfc1123("Wed, 31 Feb 2026 22:45:51 GMT")).isNull();
    assertThat(LeanDataStore.rfc1123("Wed, 5 Nov 2026 22:45:51 GMT")).isNull();
    assertThat(ListResultParser.iso8601("2026-11-22T10:51:05Z")).isEqualTo(Instant.parse("2026-11-22T10:51:05Z"));
    assertThat(ListResultParser.iso8601("2026-11-22T10:51:05.123456Z")).isEqualTo(Instant.parse("2026-11-22T10:51:05.123456Z"));
  }

  @Test
  void parsesAPageAndDecodesIt() {
    String xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ListBucketResult><Name>b</Name><Prefix>a%2F</Prefix><MaxKeys>2</MaxKeys><EncodingType>url</EncodingType>
        <IsTruncated>true</IsTruncated><NextContinuationToken>t%2B1</NextContinuationToken><KeyCount>2</KeyCount>
        <Contents><Key>a/x%20y+z</Key><LastModified>2026-11-22T10:51:05.000Z</LastModified><ETag>&quot;AB&quot;</ETag>
        <Type>Normal</Type><Size>10</Size><StorageClass>Standard</StorageClass><Owner><ID>1</ID><DisplayName>1</DisplayName></Owner></Contents>
        <CommonPrefixes><Prefix>a/%E6%97%A5/</Prefix></CommonPrefixes></ListBucketResult>""";
    ListPage p = ListResultParser.parse(xml.getBytes(StandardCharsets.UTF_8), true);
    assertThat(p.truncated()).isTrue();
    assertThat(p.nextContinuationToken()).isEqualTo("t+1");
    assertThat(p.objects()).singleElement().satisfies(o -> {
      assertThat(o.key()).isEqualTo("a/x y+z");
      assertThat(o.etag()).isEqualTo("AB");
      assertThat(o.size()).isEqualTo(10);
      assertThat(o.objectType()).isEqualTo("Normal");
      assertThat(o.lastModified()).isEqualTo(Instant.parse("2026-11-22T10:51:05Z"));
    });
    assertThat(p.commonPrefixes()).containsExactly("a/日/");
  }

  @Test
  void readsCdataCommentsEntitiesAndEmptyElements() {
    String xml = "<?xml version=\"1.0\"?><!-- c --><ListBucketResult xmlns=\"http://x/\" a='>'>"
        + "<IsTruncated>false</IsTruncated><NextContinuationToken/>"
        + "<Contents><Key>a<![CDATA[<&b>]]>c<!-- x -->&#100;&#x65;&amp;</Key><Size> 3 </Size><ETag/>"
        + "<Owner><ID>1</ID></Owner></Contents>"
        + "<CommonPrefixes><Prefix >p/</Prefix ></CommonPrefixes></ListBucketResult>\n";
    ListPage p = ListResultParser.parse(xml.getBytes(StandardCharsets.UTF_8), false);
    assertThat(p.objects()).singleElement().satisfies(o -> {
      assertThat(o.key()).isEqualTo("a<&b>cde&");
      assertThat(o.size()).isEqualTo(3);
      assertThat(o.etag()).isEmpty();
      assertThat(o.lastModified()).isNull();
    });
    assertThat(p.commonPrefixes()).containsExactly("p/");
    assertThat(p.truncated()).isFalse();
    for (String bad : new String[] {"<ListBucketResult><Contents><Key>a</Key></Contents>",
        "<Error><Code>x</Code></Error>", "<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>",
        "<ListBucketResult><Contents><Key>&foo;</Key><Size>1</Size></Contents></ListBucketResult>",
        "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>"}) {
      assertThatThrownBy(() -> ListResultParser.parse(bad.getBytes(StandardCharsets.UTF_8), true)).as(bad)
          .isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void refusesExternalEntities(@TempDir Path dir) throws Exception {
    Path secret = Files.writeString(dir.resolve("secret"), "top-secret");
    String xml = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>"
        + "<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>&x;</Key><Size>1</Size></Contents>"
        + "</ListBucketResult>";
    assertThatThrownBy(() -> ListResultParser.parse(xml.getBytes(StandardCharsets.UTF_8), false))
        .isInstanceOf(IllegalStateException.class).hasMessageNotContaining("top-secret");
  }
}
