package io.ossgw.emulator.storage;

import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Client-supplied object metadata: Content-Type, {@code x-oss-meta-*} (names lower-case, without the
 * prefix), standard headers kept verbatim (Cache-Control, Content-Disposition, Content-Encoding,
 * Content-Language, Expires) and the storage class.
 */
public record NewMeta(String contentType, SortedMap<String, String> userMeta, SortedMap<String, String> headers,
                      String storageClass) {
    /** The defaults: {@code application/octet-stream}, no user metadata, Standard. */
    public static NewMeta empty() {
        return new NewMeta("application/octet-stream", new TreeMap<>(), new TreeMap<>(), "Standard");
    }

    /** Metadata of an existing object, for COPY semantics. */
    public static NewMeta of(ObjectMeta m) {
        return new NewMeta(m.contentType(), m.userMeta(), m.headers(), m.storageClass());
    }
}
