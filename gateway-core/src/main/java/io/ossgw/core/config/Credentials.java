package io.ossgw.core.config;

/**
 * An OSS AccessKey pair (and optional STS token). {@link #toString()} never shows the secret.
 *
 * @param accessKeyId the AccessKey ID
 * @param accessKeySecret the AccessKey secret
 * @param securityToken an STS token, or null
 */
public record Credentials(String accessKeyId, String accessKeySecret, String securityToken) {
  public Credentials {
    if (accessKeyId == null || accessKeyId.isBlank() || accessKeySecret == null || accessKeySecret.isBlank()) {
      throw new IllegalArgumentException("an AccessKey ID and secret are both required");
    }
  }

  public Credentials(String accessKeyId, String accessKeySecret) {
    this(accessKeyId, accessKeySecret, null);
  }

  @Override
  public String toString() {
    return "Credentials[accessKeyId=" + accessKeyId + ", secret=***]";
  }
}
