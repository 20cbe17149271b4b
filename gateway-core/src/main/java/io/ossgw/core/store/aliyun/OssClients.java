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
    if (config.endpoint().regionMatches(true, 0, "https:", 0, 6)) {
      // the SDK trusts the JVM's trust store and checks host names (HttpClient's DefaultHostnameVerifier); the system
      // CA bundle is added, so both data paths trust the same servers (TlsTrust)
      conf.setVerifySSLEnable(true);
      conf.setX509TrustManagers(io.ossgw.core.store.tls.TlsTrust.system().bundleTrustManagers());
    }
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
    OSS oss = b.build();
    widenSocketBuffers(oss);
    return oss;
  }

  /**
   * Bytes HttpClient buffers per connection and direction before a socket write (and reads ahead on responses).
   * The SDK leaves httpcore's 8 KiB default and its request entity writes bodies 4 KiB at a time, so an upload cost one
   * {@code write(2)} per 8 KiB: 131,072 system calls, each a loopback or NIC segment, per GiB (issue 14). 64 KiB makes
   * that 8x fewer for 128 KiB of heap per pooled connection.
   */
  static final int SOCKET_BUFFER = 64 * 1024;

  /**
   * Sets {@link #SOCKET_BUFFER} as the connection pool's default connection config. aliyun-sdk-oss 3.18.5 has no
   * setting for it, so this reaches its {@code OSSClient.serviceClient} and {@code
   * DefaultServiceClient.connectionManager} by reflection before any connection exists; if the SDK's insides change,
   * the default stays (slower, not wrong) and a warning says so.
   */
  static void widenSocketBuffers(OSS oss) {
    try {
      java.lang.reflect.Field sc = com.aliyun.oss.OSSClient.class.getDeclaredField("serviceClient");
      sc.setAccessible(true);
      Object client = sc.get(oss);
      java.lang.reflect.Field cm = com.aliyun.oss.common.comm.DefaultServiceClient.class.getDeclaredField("connectionManager");
      cm.setAccessible(true);
      if (cm.get(client) instanceof org.apache.http.impl.conn.PoolingHttpClientConnectionManager pool) {
        pool.setDefaultConnectionConfig(org.apache.http.config.ConnectionConfig.custom().setBufferSize(SOCKET_BUFFER)
            .setFragmentSizeHint(SOCKET_BUFFER).build());
        return;
      }
      org.slf4j.LoggerFactory.getLogger(OssClients.class).warn("aliyun-sdk-oss: unexpected connection manager; "
          + "HttpClient keeps its 8 KiB socket buffers");
    } catch (ReflectiveOperationException | RuntimeException e) {
      org.slf4j.LoggerFactory.getLogger(OssClients.class).warn("aliyun-sdk-oss: cannot widen HttpClient's socket buffers "
          + "({}); uploads cost more CPU", e.toString());
    }
  }
}
