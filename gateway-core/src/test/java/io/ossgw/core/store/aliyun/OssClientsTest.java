package io.ossgw.core.store.aliyun;

import static org.assertj.core.api.Assertions.assertThat;

import com.aliyun.oss.OSS;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import java.util.List;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import org.junit.jupiter.api.Test;

/** The SDK clients get 64 KiB HttpClient socket buffers (the reflection into aliyun-sdk-oss still finds its pool). */
class OssClientsTest {
  @Test
  void connectionsBufferSixtyFourKib() throws Exception {
    EngineConfig config = EngineConfig.fromOptions("b", "", MountOptions.parse(List.of("url=http://127.0.0.1:9")),
        new Credentials("ak", "sk"), 0, 0, null);
    OSS oss = OssClients.build(config, false);
    try {
      var sc = com.aliyun.oss.OSSClient.class.getDeclaredField("serviceClient");
      sc.setAccessible(true);
      var cm = com.aliyun.oss.common.comm.DefaultServiceClient.class.getDeclaredField("connectionManager");
      cm.setAccessible(true);
      var pool = (PoolingHttpClientConnectionManager) cm.get(sc.get(oss));
      assertThat(pool.getDefaultConnectionConfig().getBufferSize()).isEqualTo(OssClients.SOCKET_BUFFER).isEqualTo(65536);
      assertThat(pool.getDefaultConnectionConfig().getFragmentSizeHint()).isEqualTo(65536);
    } finally {
      oss.shutdown();
    }
  }
}
