package io.ossgw.core.store.lean;

import com.aliyun.oss.ClientBuilderConfiguration;
import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSClientBuilder;
import com.aliyun.oss.common.auth.DefaultCredentialProvider;
import com.aliyun.oss.common.comm.SignVersion;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.emulator.OssEmulator;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * What the lean client's tests share: one emulator per test class (V4 signatures verified, keys ak/sk, one bucket),
 * aliyun-sdk-oss pointed at it to check what the lean path wrote, and a lean store over an SDK store whose
 * {@link AliyunObjectStore#clientsBuilt()} shows whether any request fell back to the SDK. Fault injections are
 * cleared after each test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LeanEmulatorTest {
  final String bucket;
  OssEmulator emu;
  OSS sdk;
  AliyunObjectStore sdkStore;
  LeanDataStore store;

  LeanEmulatorTest(String bucket) {
    this.bucket = bucket;
  }

  @BeforeAll
  void startEmulator() {
    emu = OssEmulator.builder().bind("127.0.0.1").port(0).bucket(bucket).credentials("ak", "sk").authEnabled(true)
        .build().start();
    sdk = sdk(emu.endpoint());
    EngineConfig c = config(emu.endpoint(), bucket, new Credentials("ak", "sk"));
    sdkStore = new AliyunObjectStore(c);
    store = (LeanDataStore) LeanDataStore.wrap(sdkStore, c);
  }

  @AfterAll
  void stopEmulator() {
    store.close();
    sdk.shutdown();
    emu.close();
  }

  @AfterEach
  void clearFaults() {
    emu.faults().clear();
  }

  /** aliyun-sdk-oss with V4 signatures and keys ak/sk, to check what the lean path wrote. */
  static OSS sdk(String endpoint) {
    ClientBuilderConfiguration conf = new ClientBuilderConfiguration();
    conf.setSignatureVersion(SignVersion.V4);
    return OSSClientBuilder.create().endpoint(endpoint).credentialsProvider(new DefaultCredentialProvider("ak", "sk"))
        .clientConfiguration(conf).region("cn-hangzhou").build();
  }

  /** An engine configuration for {@code bucket} at {@code endpoint} with one retry, plus the mount options given. */
  static EngineConfig config(String endpoint, String bucket, Credentials creds, String... opts) {
    List<String> o = new ArrayList<>(List.of("url=" + endpoint, "retries=1"));
    o.addAll(List.of(opts));
    return EngineConfig.fromOptions(bucket, "", MountOptions.parse(o), creds, 0, 0, null);
  }

  /** A lean store of its own (the caller closes it) for configuration {@code c}. */
  static LeanDataStore lean(EngineConfig c) {
    return (LeanDataStore) LeanDataStore.wrap(new AliyunObjectStore(c), c);
  }

  /** {@code n} bytes, the same for the same seed. */
  static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new SplittableRandom(seed).nextBytes(b);
    return b;
  }
}
