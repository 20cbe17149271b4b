package io.ossgw.nfs;

import com.aliyun.oss.ClientBuilderConfiguration;
import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSClientBuilder;
import com.aliyun.oss.common.auth.DefaultCredentialProvider;
import com.aliyun.oss.common.comm.SignVersion;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Writes {@code COUNT} empty objects {@code PREFIX/f-NNNNN} with the SDK (another OSS client) for the NFS listing
 * benchmark. Usage: {@code NfsBenchSeed ENDPOINT BUCKET AK SK PREFIX COUNT}. Not a test.
 */
public final class NfsBenchSeed {
  private NfsBenchSeed() {}

  public static void main(String[] args) throws Exception {
    ClientBuilderConfiguration conf = new ClientBuilderConfiguration();
    conf.setSignatureVersion(SignVersion.V4);
    OSS oss = OSSClientBuilder.create().endpoint(args[0]).credentialsProvider(new DefaultCredentialProvider(args[2],
        args[3])).clientConfiguration(conf).region("cn-hangzhou").build();
    ExecutorService pool = Executors.newFixedThreadPool(32);
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int i = 0; i < Integer.parseInt(args[5]); i++) {
        String key = String.format("%s/f-%05d", args[4], i);
        fs.add(pool.submit(() -> oss.putObject(args[1], key, new ByteArrayInputStream(new byte[0]))));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdown();
      oss.shutdown();
    }
  }
}
