package io.ossgw.core.store.lean;

import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.store.aliyun.KeyCodec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DeleteObject, DeleteMultipleObjects and CopyObject over the lean client (issue 22 item 4: an `rm` of 1,000 files and
 * a directory rename are one of these per file, and on the SDK each cost ~1 ms of CPU). The wire follows
 * reference/oss-api.md §2.2 and the OSS API docs:
 * <ul>
 *   <li>DeleteObject: {@code DELETE /key}, 204; a missing key is not an error.
 *   <li>DeleteMultipleObjects: {@code POST /?delete&encoding-type=url} with {@code Content-MD5} (OSS requires it) and
 *       {@code <Delete><Quiet>true</Quiet><Object><Key>..</Key></Object>...</Delete>}, at most 1,000 keys; OSS reports
 *       missing keys as deleted and lists nothing in quiet mode, so a 200 means every key is gone. A server that lists
 *       {@code <Error>} entries (S3's quiet reply) has those keys reported as not deleted.
 *   <li>CopyObject: {@code PUT /dst} with {@code x-oss-copy-source: /bucket/} + the percent-encoded source key ({@code /}
 *       as {@code %2F}, as the SDK sends it), {@code Content-Length: 0}; with metadata
 *       {@code x-oss-metadata-directive: REPLACE} and the new Content-Type and {@code x-oss-meta-*}; the ETag from the
 *       {@code <CopyObjectResult>} body.
 * </ul>
 */
final class LeanKeyOps {
  /** DeleteMultipleObjects' limit on keys per request. */
  static final int MAX_DELETE_KEYS = 1000;
  private static final int MAX_REPLY = 4 << 20;

  private final LeanOssClient client;
  private final String bucket;

  LeanKeyOps(LeanOssClient client, String bucket) {
    this.client = client;
    this.bucket = bucket;
  }

  /** DeleteObject; NOT_FOUND is swallowed as on the SDK path. */
  void deleteObject(String key) {
    delete(client, key, Map.of(), "DeleteObject " + key, StoreErrorKind.NOT_FOUND);
  }

  /**
   * A {@code DELETE} of {@code key} with {@code query} (204 expected, any other 2xx body read and dropped); an error of
   * kind {@code gone} means the thing is already gone and is not thrown.
   */
  static void delete(LeanOssClient client, String key, Map<String, String> query, String what, StoreErrorKind gone) {
    try {
      client.exchange("DELETE", key, query, Map.of(), null, (c, r, crc) -> {
        if (r.status() != 204) {
          c.readBody(r, MAX_REPLY);
        }
        return null;
      }, what);
    } catch (StoreException e) {
      if (e.kind() != gone) {
        throw e;
      }
    }
  }

  /**
   * The body of a DeleteMultipleObjects request in quiet mode, or null when a key holds a character XML 1.0 cannot
   * carry (controls other than tab, LF and CR; those three go as character references so no parser normalises them).
   */
  static byte[] deleteBody(List<String> keys) {
    StringBuilder sb = new StringBuilder(64 + keys.size() * 48);
    sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Delete><Quiet>true</Quiet>");
    for (String k : keys) {
      sb.append("<Object><Key>");
      if (!appendXmlText(sb, k)) {
        return null;
      }
      sb.append("</Key></Object>");
    }
    return sb.append("</Delete>").toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Appends {@code text} as XML element text: {@code & < > "} as entities, tab, LF and CR as character references (so
   * no parser normalises them); false, with {@code sb} part-written, when it holds a character XML 1.0 cannot carry.
   */
  static boolean appendXmlText(StringBuilder sb, String text) {
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      switch (ch) {
        case '&' -> sb.append("&amp;");
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '"' -> sb.append("&quot;");
        case '\t', '\n', '\r' -> sb.append("&#").append((int) ch).append(';');
        default -> {
          if (ch < 0x20 || ch == 0xfffe || ch == 0xffff) {
            return false;
          }
          sb.append(ch);
        }
      }
    }
    return true;
  }

  /**
   * DeleteMultipleObjects of up to {@link #MAX_DELETE_KEYS} keys.
   *
   * @return the keys the reply names as not deleted (empty when all went); null when the keys cannot travel in XML
   * @throws StoreException when the request fails as a whole (then none may be assumed deleted)
   */
  List<String> deleteObjects(List<String> keys) {
    if (keys.size() > MAX_DELETE_KEYS) {
      throw new IllegalArgumentException(keys.size() + " keys, DeleteMultipleObjects takes at most " + MAX_DELETE_KEYS);
    }
    byte[] body = deleteBody(keys);
    if (body == null) {
      return null;
    }
    Map<String, String> q = new LinkedHashMap<>();
    q.put("delete", "");
    q.put("encoding-type", "url");
    Map<String, String> h = new LinkedHashMap<>();
    h.put("content-md5", md5Base64(body));
    h.put("content-type", "application/xml");
    return client.exchange("POST", "", q, h, ContentSource.ofBytes(body),
        (c, r, crc) -> errorKeys(new String(c.readBody(r, MAX_REPLY), StandardCharsets.UTF_8)),
        "DeleteMultipleObjects (" + keys.size() + " keys)");
  }

  /** The keys of {@code <Error>} entries of a DeleteResult (URL-decoded, as asked with encoding-type=url). */
  static List<String> errorKeys(String xml) {
    List<String> failed = new ArrayList<>();
    int at = 0;
    while ((at = xml.indexOf("<Error>", at)) >= 0) {
      int end = xml.indexOf("</Error>", at);
      int k = xml.indexOf("<Key>", at);
      int kEnd = xml.indexOf("</Key>", k + 1);
      if (end < 0 || k < 0 || kEnd < 0 || k > end) {
        throw new StoreException(StoreErrorKind.OTHER, "MalformedResponse", 0, null,
            "DeleteMultipleObjects: an <Error> without a <Key>", null);
      }
      failed.add(KeyCodec.decode(xml.substring(k + 5, kEnd)));
      at = end;
    }
    return failed;
  }

  /**
   * CopyObject within the bucket.
   *
   * @param metaHeaders Content-Type and {@code x-oss-meta-*} of the destination (REPLACE), or null to keep the source's
   */
  WriteResult copyObject(String sourceKey, String destinationKey, Map<String, String> metaHeaders) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("x-oss-copy-source", copySource(bucket, sourceKey));
    if (metaHeaders != null) {
      h.put("x-oss-metadata-directive", "REPLACE");
      h.putAll(metaHeaders);
    }
    String what = "CopyObject " + sourceKey + " -> " + destinationKey;
    return client.exchange("PUT", destinationKey, Map.of(), h, ContentSource.ofBytes(new byte[0]), (c, r, crc) -> {
      String xml = new String(c.readBody(r, MAX_REPLY), StandardCharsets.UTF_8);
      String etag = element(xml, "ETag");
      return new WriteResult(unquote(etag != null ? etag : r.header("etag")), null);
    }, what);
  }

  /** {@code x-oss-copy-source}: {@code /bucket/} + the percent-encoded key ({@code /} as {@code %2F}, as the SDK). */
  static String copySource(String bucket, String key) {
    StringBuilder source = new StringBuilder(key.length() + bucket.length() + 8).append('/').append(bucket).append('/');
    return OssV4Signer.encode(source, key, false).toString();
  }

  /** The text of the first {@code <name>} element of a small reply, its quotes and ampersands decoded, or null. */
  static String element(String xml, String name) {
    int s = xml.indexOf("<" + name + ">");
    int e = s < 0 ? -1 : xml.indexOf("</" + name + ">", s);
    return e < 0 ? null : xml.substring(s + name.length() + 2, e).replace("&quot;", "\"").replace("&amp;", "&");
  }

  static String unquote(String etag) {
    if (etag == null) {
      return null;
    }
    String e = etag.strip();
    return e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"") ? e.substring(1, e.length() - 1) : e;
  }

  private static String md5Base64(byte[] body) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(body));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
