package io.ossgw.app.cli;

import picocli.CommandLine;

/** {@code ossgw --version}: the version of the gateway-app jar and the Java runtime. */
public class VersionProvider implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = VersionProvider.class.getPackage().getImplementationVersion();
    return new String[] {"ossgw " + (v == null ? "0.1.0-SNAPSHOT" : v),
        "Java " + Runtime.version() + " (" + System.getProperty("java.home") + ")"};
  }
}
