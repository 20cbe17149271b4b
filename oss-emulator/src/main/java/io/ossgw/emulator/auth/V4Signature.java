package io.ossgw.emulator.auth;

import io.ossgw.emulator.util.Hex;
import io.ossgw.emulator.util.UriCodec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * OSS signature V4 ({@code OSS4-HMAC-SHA256}). Canonical request lines: verb; RFC 3986-encoded
 * {@code /bucket/key} keeping {@code /}; sorted encoded query ({@code k} when the value is empty); sorted
 * {@code k:v} lines of content-type, content-md5, every {@code x-oss-*} and the additional headers, then an
 * empty line; the additional header names joined by {@code ;}; the {@code x-oss-content-sha256} value.
 * The signing key is the HMAC-SHA256 chain {@code "aliyun_v4"+sk} → date → region → product →
 * {@code aliyun_v4_request}.
 */
public final class V4Signature {
    private V4Signature() {
    }

    /** The canonical request for {@code in} with the given additional header names (lower case, sorted). */
    public static String canonicalRequest(SigningInput in, List<String> additional) {
        StringBuilder sb = new StringBuilder();
        sb.append(in.method()).append('\n');
        sb.append(UriCodec.encode(in.resourcePath(), true)).append('\n');
        TreeMap<String, String> q = new TreeMap<>();
        for (Map.Entry<String, String> p : in.params()) {
            q.put(UriCodec.encode(p.getKey().trim(), false), p.getValue() == null ? "" : UriCodec.encode(p.getValue().trim(), false));
        }
        String sep = "";
        for (Map.Entry<String, String> p : q.entrySet()) {
            sb.append(sep).append(p.getKey());
            if (!p.getValue().isEmpty()) {
                sb.append('=').append(p.getValue());
            }
            sep = "&";
        }
        sb.append('\n');
        Set<String> extra = Set.copyOf(additional);
        TreeMap<String, String> h = new TreeMap<>();
        for (Map.Entry<String, List<String>> e : in.headers().asMap().entrySet()) {
            String name = e.getKey();
            if (name.equals("content-type") || name.equals("content-md5") || name.startsWith("x-oss-")
                    || extra.contains(name)) {
                h.put(name, String.join(",", e.getValue()).trim());
            }
        }
        h.forEach((k, v) -> sb.append(k).append(':').append(v).append('\n'));
        sb.append('\n');
        sb.append(String.join(";", additional)).append('\n');
        String payload = in.headers().first("x-oss-content-sha256");
        sb.append(payload == null || payload.isEmpty() ? "UNSIGNED-PAYLOAD" : payload);
        return sb.toString();
    }

    /** {@code OSS4-HMAC-SHA256\n<datetime>\n<scope>\n<hex sha256(canonical)>}. */
    public static String stringToSign(String dateTime, String scope, String canonicalRequest) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonicalRequest.getBytes(StandardCharsets.UTF_8));
            return "OSS4-HMAC-SHA256\n" + dateTime + "\n" + scope + "\n" + Hex.lower(hash);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Hex HMAC-SHA256 signature with the key derived from {@code secret}, date (yyyyMMdd), region and product. */
    public static String sign(String secret, String date, String region, String product, String stringToSign) {
        byte[] k = hmac(("aliyun_v4" + secret).getBytes(StandardCharsets.UTF_8), date);
        k = hmac(k, region);
        k = hmac(k, product);
        k = hmac(k, "aliyun_v4_request");
        return Hex.lower(hmac(k, stringToSign));
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
