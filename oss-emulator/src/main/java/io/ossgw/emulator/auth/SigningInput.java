package io.ossgw.emulator.auth;

import io.ossgw.emulator.http.Headers;
import java.util.List;
import java.util.Map;

/**
 * What a signature covers, independent of addressing style.
 *
 * @param method  HTTP method
 * @param bucket  bucket name or null (service level)
 * @param key     decoded object key or null (bucket level)
 * @param params  decoded query parameters in arrival order; a null value means the parameter had no {@code =}
 * @param headers request headers
 */
public record SigningInput(String method, String bucket, String key, List<Map.Entry<String, String>> params,
                           Headers headers) {

    /** {@code /}, {@code /bucket/} or {@code /bucket/key}: the resource both V1 and V4 sign. */
    public String resourcePath() {
        if (bucket == null) {
            return "/";
        }
        return "/" + bucket + "/" + (key == null ? "" : key);
    }
}
