package io.ossgw.core.store.lean;

import io.ossgw.core.store.AppendResult;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.aliyun.UploadCrc;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * AppendObject over the lean client (OSS API "AppendObject"): {@code POST /key?append&position=N} with the bytes as
 * the body and the Content-Type and {@code x-oss-meta-*} headers the SDK sends (OSS applies them when the append
 * creates the object). The reply carries {@code x-oss-next-append-position} (the object's length after it), the new
 * ETag and {@code x-oss-hash-crc64ecma}, the CRC-64 of the whole object: it is checked against the bytes sent when
 * the append created the object (position 0), the one case where those bytes are the whole object; later appends are
 * not checked (SEMANTICS.md, "Durability and consistency").
 *
 * <p>Not sent again by the client when it meets a stale keep-alive connection: whether an append whose reply was lost
 * took effect is for the retry layer to find out ({@code LostAppendReplies}, one HeadObject), since a blind second
 * append would fail with PositionNotEqualToLength or, worse, add the bytes twice at another position.
 */
final class LeanAppend {
  private final LeanOssClient client;

  LeanAppend(LeanOssClient client) {
    this.client = client;
  }

  /**
   * @param position bytes: the object's current length (0 creates an Appendable object)
   * @param metaHeaders Content-Type, {@code x-oss-meta-*} and, with {@code enable_content_md5}, Content-MD5 (values
   *     without control characters, UTF-8 on the wire)
   * @return the object's length, CRC-64 and ETag after the append
   * @throws StoreException CONFLICT when the object is not {@code position} bytes long (PositionNotEqualToLength) or
   *     not Appendable (ObjectNotAppendable), a transient InconsistentCRC when a creating append's CRC does not match,
   *     or a transport failure (transient, outcome unknown)
   */
  AppendResult append(String key, long position, ContentSource body, Map<String, String> metaHeaders) {
    String what = "AppendObject " + key + " at " + position;
    Map<String, String> q = new LinkedHashMap<>();
    q.put("append", "");
    q.put("position", Long.toString(position));
    return client.exchange("POST", key, q, metaHeaders, body, (c, r, crc) -> {
      String next = r.header("x-oss-next-append-position");
      if (next == null) {
        throw new StoreException(StoreErrorKind.OTHER, "MalformedResponse", 0, r.header("x-oss-request-id"),
            what + ": no x-oss-next-append-position in the reply", null);
      }
      String server = r.header("x-oss-hash-crc64ecma");
      if (position == 0) {
        UploadCrc.check(OptionalLong.of(crc), server == null ? null : Long.parseUnsignedLong(server),
            r.header("x-oss-request-id"), what);
      }
      c.readBody(r, 64 * 1024);
      return new AppendResult(Long.parseLong(next.strip()), server, LeanKeyOps.unquote(r.header("etag")));
    }, what, false);
  }
}
