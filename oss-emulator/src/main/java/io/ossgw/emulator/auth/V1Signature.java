package io.ossgw.emulator.auth;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * OSS signature V1 ({@code Authorization: OSS ak:base64(HMAC-SHA1(sk, StringToSign))}), as built by the SDKs'
 * {@code SignUtils.buildCanonicalString}: verb, Content-MD5, Content-Type, Date, the sorted lower-case
 * {@code x-oss-*} headers, then the canonical resource with the signed sub-resources (sorted; {@code k}
 * without a value, {@code k=v} with one, raw values).
 */
public final class V1Signature {
    /** Query parameters that are part of the V1 canonical resource (SDK {@code SignParameters.SIGNED_PARAMTERS}). */
    static final Set<String> SIGNED_PARAMETERS = Set.of("acl", "uploads", "location", "cors", "logging", "website",
            "referer", "lifecycle", "delete", "append", "tagging", "objectMeta", "uploadId", "partNumber",
            "security-token", "position", "response-cache-control", "response-content-disposition",
            "response-content-encoding", "response-content-language", "response-content-type", "response-expires",
            "img", "style", "styleName", "replication", "replicationProgress", "replicationLocation", "cname",
            "bucketInfo", "comp", "qos", "live", "status", "vod", "startTime", "endTime", "x-oss-process",
            "processConfiguration", "symlink", "stat", "udf", "udfName", "udfImage", "udfImageDesc", "udfApplication",
            "udfApplicationLog", "restore", "versions", "versioning", "versionId", "encryption", "policy",
            "requestPayment", "x-oss-traffic-limit", "qosInfo", "asyncFetch", "sequential", "x-oss-request-payer",
            "vpcip", "vip", "inventory", "inventoryId", "continuation-token", "worm", "wormId", "wormExtend",
            "callback", "callback-var", "x-oss-dir", "x-oss-rename", "x-oss-delete", "transferAcceleration",
            "x-oss-ac-source-ip", "x-oss-ac-subnet-mask", "x-oss-ac-vpc-id", "x-oss-ac-forward-allow", "metaQuery",
            "resourceGroup", "regionList", "x-oss-async-process", "x-oss-write-get-object-response",
            "bucketArchiveDirectRead", "httpsConfig", "publicAccessBlock", "policyStatus", "redundancyTransition",
            "x-oss-target-redundancy-type", "x-oss-redundancy-transition-taskid", "accessPoint", "accessPointPolicy",
            "seal");

    private V1Signature() {
    }

    /** The V1 StringToSign of {@code in}. */
    public static String stringToSign(SigningInput in) {
        return stringToSign(in, false);
    }

    /**
     * @param emptyAsBare sign a sub-resource sent as {@code k=} (empty value) as bare {@code k}: oss2 sends
     *                    {@code ?uploads=} but signs {@code ?uploads}, while the Java SDK signs what it sends
     */
    public static String stringToSign(SigningInput in, boolean emptyAsBare) {
        StringBuilder sb = new StringBuilder();
        sb.append(in.method()).append('\n');
        sb.append(nz(in.headers().first("Content-MD5"))).append('\n');
        sb.append(nz(in.headers().first("Content-Type"))).append('\n');
        sb.append(nz(in.headers().first("Date"))).append('\n');
        TreeMap<String, String> oss = new TreeMap<>();
        for (Map.Entry<String, List<String>> h : in.headers().asMap().entrySet()) {
            if (h.getKey().startsWith("x-oss-")) {
                oss.put(h.getKey(), String.join(",", h.getValue()).trim());
            }
        }
        oss.forEach((k, v) -> sb.append(k).append(':').append(v).append('\n'));
        sb.append(in.resourcePath());
        TreeMap<String, String> sub = new TreeMap<>();
        for (Map.Entry<String, String> p : in.params()) {
            if (SIGNED_PARAMETERS.contains(p.getKey())) {
                sub.put(p.getKey(), p.getValue());
            }
        }
        char sep = '?';
        for (Map.Entry<String, String> p : sub.entrySet()) {
            sb.append(sep).append(p.getKey());
            if (p.getValue() != null && !(emptyAsBare && p.getValue().isEmpty())) {
                sb.append('=').append(p.getValue());
            }
            sep = '&';
        }
        return sb.toString();
    }

    /** base64(HMAC-SHA1(secret, stringToSign)). */
    public static String sign(String secret, String stringToSign) {
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            return Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String nz(String s) {
        return s == null ? "" : s.trim();
    }
}
