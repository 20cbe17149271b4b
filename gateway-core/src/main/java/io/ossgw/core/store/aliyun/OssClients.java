package io.ossgw.core.store.aliyun;

import com.aliyun.oss.ClientBuilderConfiguration;
import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSClientBuilder;
import com.aliyun.oss.common.auth.DefaultCredentialProvider;
import com.aliyun.oss.common.comm.SignVersion;
import io.ossgw.core.config.EngineConfig;

/** Builds aliyun-sdk-oss clients with the settings reference/oss-api.md §5-6 recommends. */
final class OssClients {
  private OssClients() {}

  /**
   * @param crc whether the SDK checks CRC-64 (on for uploads; off for the ranged-read client)
   */
  static OSS build(EngineConfig config, boolean crc) {
    ClientBuilderConfiguration conf = new ClientBuilderConfiguration();
    conf.setSignatureVersion(config.signatureV4() ? SignVersion.V4 : SignVersion.V1);
    conf.setCrcCheckEnabled(crc);
    conf.setMaxErrorRetry(0); // RetryingObjectStore retries, with backoff and metrics
    conf.setConnectionTimeout((int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()));
    conf.setSocketTimeout((int) Math.min(Integer.MAX_VALUE, config.readwriteTimeout().toMillis()));
    conf.setConnectionRequestTimeout(60_000); // never wait forever for a pooled connection
    conf.setMaxConnections(512);
    conf.setIdleConnectionTime(60_000);
    conf.setRedirectEnable(false);
    DefaultCredentialProvider creds = config.credentials().securityToken() == null
        ? new DefaultCredentialProvider(config.credentials().accessKeyId(), config.credentials().accessKeySecret())
        : new DefaultCredentialProvider(config.credentials().accessKeyId(), config.credentials().accessKeySecret(),
            config.credentials().securityToken());
    OSSClientBuilder.OSSClientBuilderImpl b = OSSClientBuilder.create()
        .endpoint(config.endpoint())
        .credentialsProvider(creds)
        .clientConfiguration(conf);
    if (config.signatureV4()) {
      b.region(config.region());
    }
    return b.build();
  }
}
