package io.ossgw.app.config;

import io.smallrye.config.SmallRyeConfig;
import java.util.Map;

/** Lets tests of other packages build a config with every ossgw mapping. */
public final class ConfigMappingTestAccess {
  private ConfigMappingTestAccess() {}

  public static SmallRyeConfig config(Map<String, String> props) {
    return ConfigMappingTest.config(props);
  }
}
