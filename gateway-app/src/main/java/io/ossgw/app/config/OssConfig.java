package io.ossgw.app.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code ossgw.oss.*}: how {@code serve} reaches OSS. Every mount uses these unless its options say otherwise
 * ({@code url=}, {@code region=}, {@code sigv1}, {@code passwd_file=} in {@code ossgw.mounts.<name>.options}).
 */
@ConfigMapping(prefix = "ossgw.oss")
public interface OssConfig {
  /** Signature versions. */
  enum Signature { V4, V1 }

  /**
   * {@code ossgw.oss.endpoint}: the OSS endpoint URL with scheme, e.g. {@code https://oss-cn-hangzhou.aliyuncs.com}
   * (ossfs {@code url=}). Default: none, and then {@code serve} starts an embedded OSS emulator (see
   * {@code ossgw.emulator.*}) and uses it.
   */
  Optional<String> endpoint();

  /** {@code ossgw.oss.region}: the region for V4 signatures (ossfs {@code region=}). Default {@code cn-hangzhou}. */
  @WithDefault("cn-hangzhou")
  String region();

  /** {@code ossgw.oss.signature}: {@code V4} (default) or {@code V1} (ossfs {@code sigv1}). */
  @WithDefault("V4")
  Signature signature();

  /**
   * {@code ossgw.oss.access-key-id}: the AccessKey ID. Default: none; then {@code passwd-file}, then the environment
   * ({@code OSS_ACCESS_KEY_ID}/{@code OSS_ACCESS_KEY_SECRET}), then {@code ~/.passwd-ossfs}, {@code /etc/passwd-ossfs}.
   */
  Optional<String> accessKeyId();

  /** {@code ossgw.oss.access-key-secret}: the AccessKey secret (never logged). Default: none (see access-key-id). */
  Optional<String> accessKeySecret();

  /**
   * {@code ossgw.oss.passwd-file}: an ossfs credentials file ({@code AK:SK} or {@code bucket:AK:SK} lines), refused if
   * others can read it. Default: none.
   */
  Optional<Path> passwdFile();
}
