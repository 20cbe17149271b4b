package io.ossgw.core.write;

import io.ossgw.core.meta.UploadRecord;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.UploadListing;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The start-up clean-up of incomplete multipart uploads (issue 9 item 3; SEMANTICS.md "Incomplete multipart uploads").
 *
 * <ul>
 *   <li>{@link #abortRecorded}: every upload the {@link UploadRecord} still holds was started by an earlier run of this
 *       mount (same state directory, endpoint, bucket and prefix) that died before completing or aborting it; one
 *       AbortMultipartUpload each.
 *   <li>{@link #abortOlderThan}: opt-in ({@code incomplete_mpu_abort=}, named after ossfs's
 *       {@code --incomplete-mpu-abort}): any upload under the mount's prefix initiated longer ago than the given age,
 *       whoever started it; one ListMultipartUploads per 1,000 uploads plus one AbortMultipartUpload each.
 * </ul>
 *
 * Failures are logged and left for the next start (or an OSS lifecycle rule): clean-up never stops a mount.
 */
public final class OrphanUploads {
  private static final System.Logger LOG = System.getLogger(OrphanUploads.class.getName());
  private static final Pattern AGE = Pattern.compile("(\\d+)([YMDhms])");

  private OrphanUploads() {}

  /**
   * Aborts every upload in {@code record} and forgets it (also when OSS no longer knows it).
   *
   * @return how many were aborted (or already gone)
   */
  public static int abortRecorded(ObjectStore store, UploadRecord record) {
    int n = 0;
    for (Map.Entry<String, String> e : record.unfinished().entrySet()) {
      try {
        store.abortMultipartUpload(e.getValue(), e.getKey());
        record.finished(e.getKey());
        n++;
      } catch (StoreException ex) {
        LOG.log(System.Logger.Level.WARNING, "cannot abort upload " + e.getKey() + " of " + e.getValue()
            + " left by an earlier run (" + ex.getMessage() + "); trying again at the next start");
      }
    }
    if (n > 0) {
      LOG.log(System.Logger.Level.INFO, "aborted " + n + " multipart upload(s) left incomplete by an earlier run");
    }
    return n;
  }

  /**
   * Aborts every upload whose key starts with {@code prefix} and that was initiated before {@code now - age}
   * (uploads without an Initiated time are left alone).
   *
   * @return how many were aborted
   */
  public static int abortOlderThan(ObjectStore store, String prefix, Duration age, Instant now) {
    Instant cutoff = now.minus(age);
    int n = 0;
    String keyMarker = null;
    String idMarker = null;
    try {
      UploadListing page;
      do {
        page = store.listMultipartUploads(prefix, keyMarker, idMarker, 1000);
        for (UploadListing.Upload u : page.uploads()) {
          if (u.initiated() != null && !u.initiated().isAfter(cutoff)) {
            store.abortMultipartUpload(u.key(), u.uploadId());
            n++;
          }
        }
        keyMarker = page.nextKeyMarker();
        idMarker = page.nextUploadIdMarker();
      } while (page.truncated() && keyMarker != null);
    } catch (StoreException e) {
      LOG.log(System.Logger.Level.WARNING, "incomplete_mpu_abort: clean-up under '" + prefix + "' stopped after " + n
          + " upload(s): " + e.getMessage());
    }
    if (n > 0) {
      LOG.log(System.Logger.Level.INFO, "incomplete_mpu_abort: aborted " + n + " multipart upload(s) under '" + prefix
          + "' initiated before " + cutoff);
    }
    return n;
  }

  /**
   * Parses an {@code incomplete_mpu_abort=} age in ossfs's form: {@code all} (any age, i.e. zero) or a sequence of
   * {@code <number><unit>} with units Y (365 days), M (30 days), D (days), h, m, s, e.g. {@code 1D12h} or {@code 24h}.
   *
   * @throws IllegalArgumentException on any other text
   */
  public static Duration parseAge(String text) {
    String t = text.strip();
    if (t.toLowerCase(Locale.ROOT).equals("all")) {
      return Duration.ZERO;
    }
    Matcher m = AGE.matcher(t);
    Duration d = Duration.ZERO;
    int end = 0;
    while (m.find() && m.start() == end) {
      long v = Long.parseLong(m.group(1));
      d = d.plus(switch (m.group(2)) {
        case "Y" -> Duration.ofDays(365 * v);
        case "M" -> Duration.ofDays(30 * v);
        case "D" -> Duration.ofDays(v);
        case "h" -> Duration.ofHours(v);
        case "m" -> Duration.ofMinutes(v);
        default -> Duration.ofSeconds(v);
      });
      end = m.end();
    }
    if (end == 0 || end != t.length()) {
      throw new IllegalArgumentException("option 'incomplete_mpu_abort' must be 'all' or an age like 1Y2M3D4h5m6s, not '"
          + text + "'");
    }
    return d;
  }
}
