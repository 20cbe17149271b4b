package io.ossgw.core.store;

import java.util.Map;

/**
 * The metadata a write sends: Content-Type and user metadata (names without {@code x-oss-meta-}, lower-case).
 *
 * @param contentType sent explicitly so the SDK does not guess one from the key's extension
 */
public record WriteMeta(String contentType, Map<String, String> userMeta) {
  public static final String OCTET_STREAM = "application/octet-stream";
  public static final String DIRECTORY = "application/x-directory";

  public WriteMeta {
    contentType = contentType == null ? OCTET_STREAM : contentType;
    userMeta = userMeta == null ? Map.of() : Map.copyOf(userMeta);
  }
}
