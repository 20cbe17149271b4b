package io.ossgw.core.store;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Aborts the multipart uploads that InitiateMultipartUpload attempts whose replies were lost left behind (issue 21
 * item 3; SEMANTICS.md "Incomplete multipart uploads"). InitiateMultipartUpload is not idempotent: an attempt that
 * fails with a transient error (a reset or a timeout, possibly after OSS carried it out) may have created an upload
 * whose id this gateway never saw, and the retry creates another. Nothing else could find such an upload (it is in no
 * record: the id was never known), so it would stay open and billed until {@code incomplete_mpu_abort} or a lifecycle
 * rule removed it.
 *
 * <p>After an InitiateMultipartUpload that needed more than one attempt, one ListMultipartUploads of the key
 * ({@code prefix=KEY}, every page) finds the uploads of exactly that key, and those that OSS initiated within the
 * time the attempts took around the upload finally obtained (by OSS's own Initiated times, so the two clocks never
 * meet; widened by 2 s for the listing's one-second resolution) and that this gateway does not hold are aborted. When
 * every attempt failed there is no upload to measure from: the key waits until the store is closed (a clean unmount),
 * and then the window is the local time of the attempts widened by 15 minutes each way, the clock difference OSS
 * itself tolerates (RequestTimeTooSkewed). A clean-up that fails also waits for the close, and is logged if it fails
 * then. An upload of the same key that another client initiated within that window is aborted too.
 *
 * <p>Costs nothing unless an InitiateMultipartUpload failed: then one ListMultipartUploads per 1,000 uploads of the key
 * plus one AbortMultipartUpload per upload found.
 */
final class LostInitiateReplies {
  /** The clock difference OSS accepts before it refuses a request as RequestTimeTooSkewed. */
  static final Duration CLOCK_ALLOWANCE = Duration.ofMinutes(15);
  /** ListMultipartUploads shows Initiated to the second. */
  static final Duration RESOLUTION = Duration.ofSeconds(2);

  private static final System.Logger LOG = System.getLogger(LostInitiateReplies.class.getName());

  /**
   * Attempts of one InitiateMultipartUpload whose outcome was unknown at least once.
   *
   * @param firstSent local time the first attempt was sent
   * @param lastAnswered local time the last attempt ended
   * @param obtained the upload id the last attempt returned, or null if every attempt failed
   */
  record Attempts(Instant firstSent, Instant lastAnswered, String obtained) {
    Attempts merge(Attempts o) {
      return new Attempts(firstSent.isBefore(o.firstSent) ? firstSent : o.firstSent,
          lastAnswered.isAfter(o.lastAnswered) ? lastAnswered : o.lastAnswered, null);
    }
  }

  private final ObjectStore store;
  /**
   * Uploads this store initiated and has not seen completed or aborted (never aborted here), with the metadata their
   * InitiateMultipartUpload sent ({@link LostCompleteReplies} compares it with the object).
   */
  private final Map<String, WriteMeta> held = new ConcurrentHashMap<>();
  /** Keys whose clean-up waits for {@link #closing()}. */
  private final Map<String, Attempts> pending = new ConcurrentHashMap<>();

  /** @param store where to list and abort (the retrying store, so these requests are retried too) */
  LostInitiateReplies(ObjectStore store) {
    this.store = store;
  }

  /** An upload this gateway initiated (its reply arrived), and the metadata its InitiateMultipartUpload sent. */
  void initiated(String uploadId, WriteMeta meta) {
    held.put(uploadId, meta);
  }

  /** The metadata the InitiateMultipartUpload of a held upload sent, or null when the upload is not held. */
  WriteMeta sent(String uploadId) {
    return held.get(uploadId);
  }

  /** An upload completed or aborted (or unknown to OSS): it no longer needs protecting. */
  void ended(String uploadId) {
    held.remove(uploadId);
  }

  /** After an InitiateMultipartUpload of {@code key} some of whose attempts failed: cleans up now, or at close. */
  void uncertain(String key, Attempts attempts) {
    if (attempts.obtained() == null || !clean(key, attempts)) {
      pending.merge(key, attempts, Attempts::merge);
    }
  }

  /** At a clean stop: cleans up every key that waits, logging what could not be done. */
  void closing() {
    for (String key : List.copyOf(pending.keySet())) {
      Attempts a = pending.remove(key);
      if (a != null && !clean(key, a)) {
        LOG.log(System.Logger.Level.WARNING, "an InitiateMultipartUpload of '" + key + "' lost its reply and the upload"
            + " it may have left could not be looked for; incomplete_mpu_abort= or an OSS lifecycle rule removes it");
      }
    }
  }

  /** Lists the key's uploads and aborts the lost ones; false when a request failed (nothing is lost: try again). */
  private boolean clean(String key, Attempts a) {
    try {
      List<UploadListing.Upload> ofKey = uploadsOf(key);
      Instant from = a.firstSent().minus(CLOCK_ALLOWANCE);
      Instant to = a.lastAnswered().plus(CLOCK_ALLOWANCE);
      for (UploadListing.Upload u : ofKey) {
        if (u.uploadId().equals(a.obtained()) && u.initiated() != null) {
          Duration took = Duration.between(a.firstSent(), a.lastAnswered()).abs().plus(RESOLUTION);
          from = u.initiated().minus(took);
          to = u.initiated().plus(took);
        }
      }
      int aborted = 0;
      for (UploadListing.Upload u : ofKey) {
        Instant t = u.initiated();
        if (!held.containsKey(u.uploadId()) && !u.uploadId().equals(a.obtained()) && t != null && !t.isBefore(from)
            && !t.isAfter(to)) {
          store.abortMultipartUpload(key, u.uploadId());
          aborted++;
        }
      }
      if (aborted > 0) {
        LOG.log(System.Logger.Level.INFO, "aborted " + aborted + " multipart upload(s) of '" + key
            + "' left by InitiateMultipartUpload attempts whose replies were lost");
      }
      return true;
    } catch (StoreException e) {
      LOG.log(System.Logger.Level.DEBUG, "looking for uploads of '" + key + "' with lost replies failed: " + e);
      return false;
    }
  }

  private List<UploadListing.Upload> uploadsOf(String key) {
    List<UploadListing.Upload> out = new ArrayList<>();
    String keyMarker = null;
    String idMarker = null;
    UploadListing page;
    do {
      page = store.listMultipartUploads(key, keyMarker, idMarker, 1000);
      for (UploadListing.Upload u : page.uploads()) {
        if (!u.key().equals(key)) {
          return out; // listed in key order, and KEY is the first key with that prefix: the rest are other keys
        }
        out.add(u);
      }
      keyMarker = page.nextKeyMarker();
      idMarker = page.nextUploadIdMarker();
    } while (page.truncated() && keyMarker != null);
    return out;
  }
}
