package io.ossgw.app.serve;

import java.util.List;
import java.util.Locale;

/**
 * The NFS versions {@code ossgw.nfs.versions} asks for: version 3 (with MOUNT v3 and NLM v4) and/or 4.1.
 *
 * @param v3 NFSv3 is served
 * @param v41 NFSv4.1 is served
 */
record NfsVersions(boolean v3, boolean v41) {
  /** The versions the key accepts, as its messages name them. */
  static final String ACCEPTED = "3 and 4.1, in any combination, comma-separated (default 3,4.1)";

  /**
   * Reads the key's values ("3", "4.1"; blanks around a value are ignored, a repeated value counts once).
   *
   * @throws IllegalArgumentException naming {@code ossgw.nfs.versions} and the accepted values for anything else
   *     (4.0 and 4.2 included: only minor version 1 is implemented) or for no value at all
   */
  static NfsVersions parse(List<String> values) {
    boolean v3 = false;
    boolean v41 = false;
    for (String raw : values) {
      String v = raw.strip().toLowerCase(Locale.ROOT);
      switch (v) {
        case "3" -> v3 = true;
        case "4.1" -> v41 = true;
        case "" -> { } // "3," leaves an empty value: harmless
        default -> throw new IllegalArgumentException("ossgw.nfs.versions: '" + raw.strip() + "' is not a version "
            + "ossgw serves; accepted: " + ACCEPTED);
      }
    }
    if (!v3 && !v41) {
      throw new IllegalArgumentException("ossgw.nfs.versions names no version; accepted: " + ACCEPTED);
    }
    return new NfsVersions(v3, v41);
  }

  /** As the key would be written: "3", "4.1" or "3,4.1". */
  @Override
  public String toString() {
    return v3 && v41 ? "3,4.1" : v3 ? "3" : "4.1";
  }
}
