package io.ossgw.core.store.lean;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * OSS signature V4 ({@code OSS4-HMAC-SHA256}) for header-signed requests, as reference/oss-api.md §3 gives it (the
 * rules of the SDK's {@code OSSV4Signer}, verified by the emulator's {@code V4Signature}). Canonical request: verb;
 * the RFC 3986-encoded {@code /bucket/key} keeping {@code /} (whatever addressing style carries the request); the
 * sorted encoded query ({@code k} alone when the value is empty); the sorted lower-case {@code k:v} lines of
 * content-type, content-md5 and every {@code x-oss-*} header, then an empty line; the additional header names (none
 * here); {@code UNSIGNED-PAYLOAD}. The signing key is the HMAC-SHA256 chain {@code "aliyun_v4"+secret} -> date ->
 * region -> {@code oss} -> {@code aliyun_v4_request}; it changes once a day and is cached.
 *
 * <p>Thread-safe: digest and MAC instances are pooled (taken for one signature, then returned).
 */
public final class OssV4Signer {
  private static final char[] HEX = "0123456789abcdef".toCharArray();
  /**
   * Digest and keyed MAC instances for reuse. Not ThreadLocals: the engine sends each HEAD of a listing from a new
   * virtual thread, which would create (provider lookup) and key both anew for every request.
   */
  private final ConcurrentLinkedQueue<Hashers> hashers = new ConcurrentLinkedQueue<>();

  /** A SHA-256 digest and an HMAC-SHA256 keyed with the signing key of {@code date}. */
  private static final class Hashers {
    final MessageDigest sha;
    final Mac mac;
    String date;

    Hashers() {
      try {
        sha = MessageDigest.getInstance("SHA-256");
        mac = Mac.getInstance("HmacSHA256");
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private final String accessKeyId;
  private final String secret;
  private final String region;
  private volatile DayKey dayKey;

  private record DayKey(String date, SecretKeySpec key) {}

  /**
   * @param accessKeyId the AccessKey id
   * @param secret the AccessKey secret (kept only to derive the daily signing key; never printed)
   * @param region the region of the scope, e.g. {@code cn-hangzhou}
   */
  public OssV4Signer(String accessKeyId, String secret, String region) {
    this.accessKeyId = accessKeyId;
    this.secret = secret;
    this.region = region;
  }

  /**
   * The {@code Authorization} header value for one request. The caller has put {@code x-oss-date} (
   * {@link #dateTime(long)}) and {@code x-oss-content-sha256: UNSIGNED-PAYLOAD} in {@code headers}.
   *
   * @param method HTTP verb
   * @param bucket the bucket
   * @param key the raw object key (not encoded)
   * @param query query parameters, raw (an empty value signs as the bare name); may be empty
   * @param headers request headers, names lower-case; only content-type, content-md5 and x-oss-* are signed
   * @param dateTime the {@code x-oss-date} value ({@code yyyyMMdd'T'HHmmss'Z'})
   */
  public String authorization(String method, String bucket, String key, Map<String, String> query,
      Map<String, String> headers, String dateTime) {
    StringBuilder c = new StringBuilder(256);
    c.append(method).append('\n');
    c.append('/').append(bucket).append('/');
    encode(c, key, true);
    c.append('\n');
    if (!query.isEmpty()) {
      TreeMap<String, String> q = new TreeMap<>();
      query.forEach((k, v) -> q.put(encode(new StringBuilder(), k, false).toString(),
          v == null || v.isEmpty() ? "" : encode(new StringBuilder(), v, false).toString()));
      String sep = "";
      for (Map.Entry<String, String> e : q.entrySet()) {
        c.append(sep).append(e.getKey());
        if (!e.getValue().isEmpty()) {
          c.append('=').append(e.getValue());
        }
        sep = "&";
      }
    }
    c.append('\n');
    TreeMap<String, String> signed = new TreeMap<>();
    headers.forEach((k, v) -> {
      if (k.equals("content-type") || k.equals("content-md5") || k.startsWith("x-oss-")) {
        signed.put(k, v.strip());
      }
    });
    signed.forEach((k, v) -> c.append(k).append(':').append(v).append('\n'));
    c.append("\n\n");
    c.append(headers.getOrDefault("x-oss-content-sha256", "UNSIGNED-PAYLOAD"));
    String date = dateTime.substring(0, 8);
    String scope = date + "/" + region + "/oss/aliyun_v4_request";
    Hashers hs = hashers.poll();
    if (hs == null) {
      hs = new Hashers();
    }
    String signature;
    try {
      String stringToSign = "OSS4-HMAC-SHA256\n" + dateTime + "\n" + scope + "\n"
          + hex(hs.sha.digest(c.toString().getBytes(StandardCharsets.UTF_8)));
      if (!date.equals(hs.date)) {
        hs.mac.init(signingKey(date)); // doFinal leaves the MAC keyed: once a day per instance
        hs.date = date;
      }
      signature = hex(hs.mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    hashers.offer(hs); // the pool never holds more than the most signatures made at once
    return "OSS4-HMAC-SHA256 Credential=" + accessKeyId + "/" + scope + ",Signature=" + signature;
  }

  private SecretKeySpec signingKey(String date) {
    DayKey k = dayKey;
    if (k == null || !k.date().equals(date)) {
      byte[] b = hmac(("aliyun_v4" + secret).getBytes(StandardCharsets.UTF_8), date);
      b = hmac(b, region);
      b = hmac(b, "oss");
      b = hmac(b, "aliyun_v4_request");
      k = new DayKey(date, new SecretKeySpec(b, "HmacSHA256"));
      dayKey = k;
    }
    return k.key();
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code yyyyMMdd'T'HHmmss'Z'} (UTC) of {@code epochSecond}, the {@code x-oss-date} form. */
  public static String dateTime(long epochSecond) {
    long days = Math.floorDiv(epochSecond, 86_400);
    int secs = (int) Math.floorMod(epochSecond, 86_400);
    java.time.LocalDate d = java.time.LocalDate.ofEpochDay(days);
    char[] out = new char[16];
    put(out, 0, d.getYear(), 4);
    put(out, 4, d.getMonthValue(), 2);
    put(out, 6, d.getDayOfMonth(), 2);
    out[8] = 'T';
    put(out, 9, secs / 3600, 2);
    put(out, 11, secs / 60 % 60, 2);
    put(out, 13, secs % 60, 2);
    out[15] = 'Z';
    return new String(out);
  }

  private static void put(char[] out, int at, int value, int width) {
    for (int i = width - 1; i >= 0; i--) {
      out[at + i] = (char) ('0' + value % 10);
      value /= 10;
    }
  }

  /**
   * Appends the RFC 3986 encoding of the UTF-8 bytes of {@code s} (only {@code A-Z a-z 0-9 - _ . ~} stay, and
   * {@code /} when {@code keepSlash}): the form of the V4 canonical URI and of the request line.
   */
  public static StringBuilder encode(StringBuilder sb, String s, boolean keepSlash) {
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch < 0x80) {
        if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_'
            || ch == '.' || ch == '~' || (keepSlash && ch == '/')) {
          sb.append(ch);
        } else {
          sb.append('%').append(Character.toUpperCase(HEX[ch >> 4])).append(Character.toUpperCase(HEX[ch & 0xf]));
        }
        continue;
      }
      int end = Character.isHighSurrogate(ch) && i + 1 < s.length() ? i + 2 : i + 1;
      for (byte b : s.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
        sb.append('%').append(Character.toUpperCase(HEX[(b >> 4) & 0xf])).append(Character.toUpperCase(HEX[b & 0xf]));
      }
      i = end - 1;
    }
    return sb;
  }

  private static String hex(byte[] b) {
    char[] out = new char[b.length * 2];
    for (int i = 0; i < b.length; i++) {
      out[2 * i] = HEX[(b[i] >> 4) & 0xf];
      out[2 * i + 1] = HEX[b[i] & 0xf];
    }
    return new String(out);
  }
}
