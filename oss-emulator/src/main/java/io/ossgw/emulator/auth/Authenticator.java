package io.ossgw.emulator.auth;

import io.ossgw.emulator.oss.Errors;
import io.ossgw.emulator.oss.OssException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Verifies V1 and V4 header signatures against the configured AccessKey pairs.
 * Failures: no Authorization → AccessDenied; unknown AccessKeyId → InvalidAccessKeyId; wrong signature →
 * SignatureDoesNotMatch (with StringToSign). Presigned URLs are not supported.
 */
public final class Authenticator {
    private final Map<String, String> secrets;
    private final boolean enabled;

    /**
     * @param secrets AccessKeyId to AccessKeySecret
     * @param enabled false accepts every request (demo mode)
     */
    public Authenticator(Map<String, String> secrets, boolean enabled) {
        this.secrets = Map.copyOf(secrets);
        this.enabled = enabled;
    }

    /** Whether signatures are checked. */
    public boolean enabled() {
        return enabled;
    }

    /** Throws an {@link OssException} unless {@code in} is signed by a known key. */
    public void verify(SigningInput in) {
        if (!enabled) {
            return;
        }
        String auth = in.headers().first("Authorization");
        if (auth == null || auth.isBlank()) {
            throw Errors.accessDenied("You have no right to access this object because of bucket acl.");
        }
        auth = auth.trim();
        if (auth.startsWith("OSS4-HMAC-SHA256 ")) {
            verifyV4(in, auth.substring("OSS4-HMAC-SHA256 ".length()));
        } else if (auth.startsWith("OSS ")) {
            verifyV1(in, auth.substring(4));
        } else {
            throw Errors.accessDenied("Authorization header is invalid.");
        }
    }

    private String secretFor(String ak) {
        String sk = secrets.get(ak);
        if (sk == null) {
            throw Errors.invalidAccessKeyId(ak);
        }
        return sk;
    }

    private void verifyV1(SigningInput in, String cred) {
        int colon = cred.lastIndexOf(':');
        if (colon <= 0) {
            throw Errors.accessDenied("Authorization header is invalid.");
        }
        String ak = cred.substring(0, colon).trim();
        String provided = cred.substring(colon + 1).trim();
        String sk = secretFor(ak);
        String sts = V1Signature.stringToSign(in);
        if (!same(V1Signature.sign(sk, sts), provided)
                && !same(V1Signature.sign(sk, V1Signature.stringToSign(in, true)), provided)) {
            throw Errors.signatureDoesNotMatch(ak, provided, sts, "0002-00000040");
        }
    }

    private void verifyV4(SigningInput in, String fields) {
        String credential = null;
        String signature = null;
        List<String> additional = new ArrayList<>();
        for (String f : fields.split(",")) {
            String t = f.trim();
            int eq = t.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String name = t.substring(0, eq).trim();
            String value = t.substring(eq + 1).trim();
            switch (name) {
                case "Credential" -> credential = value;
                case "Signature" -> signature = value;
                case "AdditionalHeaders" -> {
                    for (String h : value.split(";")) {
                        if (!h.isBlank()) {
                            additional.add(h.trim().toLowerCase(Locale.ROOT));
                        }
                    }
                }
                default -> {
                    // unknown field: ignored
                }
            }
        }
        String[] scope = credential == null ? new String[0] : credential.split("/");
        if (scope.length != 5 || signature == null || !"aliyun_v4_request".equals(scope[4])) {
            throw Errors.accessDenied("Authorization header is invalid.");
        }
        String ak = scope[0];
        String sk = secretFor(ak);
        String dateTime = in.headers().first("x-oss-date");
        if (dateTime == null) {
            throw Errors.accessDenied("Missing x-oss-date header for V4 signature.");
        }
        additional.sort(null);
        String canonical = V4Signature.canonicalRequest(in, additional);
        String sts = V4Signature.stringToSign(dateTime.trim(), String.join("/", Arrays.copyOfRange(scope, 1, 5)), canonical);
        String expected = V4Signature.sign(sk, scope[1], scope[2], scope[3], sts);
        if (!same(expected, signature)) {
            throw Errors.signatureDoesNotMatch(ak, signature, sts, "0002-00000040")
                    .with("CanonicalRequest", canonical);
        }
    }

    private static boolean same(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
