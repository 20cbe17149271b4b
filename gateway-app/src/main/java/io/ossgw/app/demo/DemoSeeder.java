package io.ossgw.app.demo;

import com.aliyun.oss.ClientBuilderConfiguration;
import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSClientBuilder;
import com.aliyun.oss.common.auth.DefaultCredentialProvider;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Fills the demo bucket with a few small objects written through the OSS SDK as plain objects, without ossfs
 * metadata: the demo shows that objects written by any OSS tool appear as files (mode 0640, directories implied by
 * key prefixes).
 */
public final class DemoSeeder {
  /** Key to content of the sample objects. */
  static final Map<String, String> SAMPLES = new LinkedHashMap<>();

  static {
    SAMPLES.put("README.txt", """
        Welcome to ossgw!
        Every file you see here is one plain object in the OSS bucket 'demo' of an embedded OSS emulator.
        Files you copy in become objects too; try: cp /etc/hostname ./mnt/ and list the bucket.
        """);
    SAMPLES.put("hello.txt", "Hello from OSS!\n");
    SAMPLES.put("data/numbers.csv", "n,square\n1,1\n2,4\n3,9\n4,16\n5,25\n");
    SAMPLES.put("data/logs/2026-01-01.log", "00:00:01 gateway started\n00:00:02 mounted demo\n");
    SAMPLES.put("notes/todo.md", "- [x] mount a bucket\n- [ ] copy a file in\n- [ ] see it as an object\n");
  }

  private DemoSeeder() {}

  /**
   * Puts the sample objects unless the bucket already has objects (a re-run over the same --dir keeps the user's
   * changes).
   *
   * @return the number of objects written
   */
  public static int seed(String endpoint, String bucket) {
    OSS oss = client(endpoint);
    try {
      if (!oss.listObjectsV2(bucket).getObjectSummaries().isEmpty()) {
        return 0;
      }
      for (var e : SAMPLES.entrySet()) {
        byte[] body = e.getValue().getBytes(StandardCharsets.UTF_8);
        oss.putObject(bucket, e.getKey(), new ByteArrayInputStream(body));
      }
      return SAMPLES.size();
    } finally {
      oss.shutdown();
    }
  }

  /** An SDK client for the emulator (auth is off there, so any AccessKey pair works). */
  static OSS client(String endpoint) {
    ClientBuilderConfiguration conf = new ClientBuilderConfiguration();
    conf.setSLDEnabled(true); // path-style requests: the emulator is an IP:port endpoint
    return OSSClientBuilder.create()
        .endpoint(endpoint)
        .credentialsProvider(new DefaultCredentialProvider("demo", "demo"))
        .clientConfiguration(conf)
        .build();
  }
}
