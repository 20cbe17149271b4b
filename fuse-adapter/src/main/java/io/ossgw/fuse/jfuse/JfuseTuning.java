package io.ossgw.fuse.jfuse;

import java.util.Locale;
import org.cryptomator.jfuse.api.FuseConnInfo;

/**
 * The libfuse 3 session settings the jfuse binding chooses in INIT ({@code struct fuse_conn_info}'s {@code want},
 * {@code max_background}, {@code congestion_threshold}), with JVM properties to turn each one back to libfuse's own
 * default for measurement. None changes what an application sees (SEMANTICS.md); each cuts CPU or upcalls, measured in
 * docs/benchmarks.md "libfuse 3 by default (issue 14)".
 *
 * <ul>
 *   <li>{@code -Dio.ossgw.fuse.readdirplus=always|auto|off} (default {@code always}): {@code always} asks the kernel
 *       for READDIRPLUS on every page of a listing (clears {@code FUSE_CAP_READDIRPLUS_AUTO}) and the binding answers
 *       it with every entry's attributes ({@code FUSE_FILL_DIR_PLUS}), so a cold {@code ls -l} costs no LOOKUP
 *       (getattr upcall) per entry; {@code auto} is libfuse's default (the kernel decides per page: READDIRPLUS for
 *       the first page and after lookups, READDIR otherwise); {@code off} clears both capabilities (READDIR and a
 *       LOOKUP per entry, as on libfuse 2).
 *   <li>{@code -Dio.ossgw.fuse.splice=true|false} (default {@code false}): libfuse 3 reads requests with splice(2)
 *       when the kernel offers it ({@code FUSE_CAP_SPLICE_READ}); the high-level API then copies every WRITE's data
 *       from the pipe into a freshly malloc'd buffer before the write callback (fuse.c {@code fuse_fs_write_buf}
 *       without a {@code write_buf} operation), one syscall and one allocation more per request than reading it
 *       straight into the session buffer. {@code false} clears the splice capabilities.
 *   <li>{@code -Dio.ossgw.fuse.max_background=N} (default 0 = the kernel's 12): background requests (read-ahead,
 *       async direct I/O) the kernel keeps in flight; congestion at 3/4 of it.
 * </ul>
 *
 * @param readdirplus which READDIRPLUS mode to negotiate
 * @param splice whether libfuse may splice requests and replies
 * @param maxBackground {@code max_background}, 0 for the kernel's default
 */
record JfuseTuning(Readdirplus readdirplus, boolean splice, int maxBackground) {
  /** READDIRPLUS negotiation. */
  enum Readdirplus { ALWAYS, AUTO, OFF }

  static final String READDIRPLUS_PROPERTY = "io.ossgw.fuse.readdirplus";
  static final String SPLICE_PROPERTY = "io.ossgw.fuse.splice";
  static final String MAX_BACKGROUND_PROPERTY = "io.ossgw.fuse.max_background";

  /** The settings from the system properties above. @throws IllegalArgumentException on a value they do not take */
  static JfuseTuning fromSystemProperties() {
    String rdp = System.getProperty(READDIRPLUS_PROPERTY, "always").trim().toUpperCase(Locale.ROOT);
    Readdirplus mode;
    try {
      mode = Readdirplus.valueOf(rdp);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("-D" + READDIRPLUS_PROPERTY + " must be always, auto or off: " + rdp, e);
    }
    boolean splice = Boolean.parseBoolean(System.getProperty(SPLICE_PROPERTY, "false").trim());
    int bg = Integer.parseInt(System.getProperty(MAX_BACKGROUND_PROPERTY, "0").trim());
    if (bg < 0 || bg > 65535) {
      throw new IllegalArgumentException("-D" + MAX_BACKGROUND_PROPERTY + " must be 0..65535: " + bg);
    }
    return new JfuseTuning(mode, splice, bg);
  }

  /**
   * The {@code want} flags for INIT: libfuse's defaults ({@code want}) with the changes above. Only clears or sets
   * capabilities the kernel offers ({@code capable}): libfuse 3 aborts the session if {@code want} exceeds it.
   */
  static int want(int want, int capable, JfuseTuning t) {
    int w = want;
    if (!t.splice()) {
      w &= ~(FuseConnInfo.FUSE_CAP_SPLICE_READ | FuseConnInfo.FUSE_CAP_SPLICE_WRITE
          | FuseConnInfo.FUSE_CAP_SPLICE_MOVE);
    }
    switch (t.readdirplus()) {
      case ALWAYS -> {
        w |= FuseConnInfo.FUSE_CAP_READDIRPLUS;
        w &= ~FuseConnInfo.FUSE_CAP_READDIRPLUS_AUTO;
      }
      case OFF -> w &= ~(FuseConnInfo.FUSE_CAP_READDIRPLUS | FuseConnInfo.FUSE_CAP_READDIRPLUS_AUTO);
      case AUTO -> { }
    }
    return w & capable;
  }
}
