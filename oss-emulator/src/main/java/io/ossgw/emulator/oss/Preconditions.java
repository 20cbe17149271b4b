package io.ossgw.emulator.oss;

import io.ossgw.emulator.storage.ObjectMeta;
import io.ossgw.emulator.util.Dates;

/**
 * Conditional requests (RFC 7232 as OSS applies them): If-Match / If-Unmodified-Since failing → 412
 * PreconditionFailed; If-None-Match matching or If-Modified-Since not modified → 304 (GET and HEAD). The
 * same rules serve {@code x-oss-copy-source-if-*} on copies, where every failure is a 412.
 */
final class Preconditions {
    /** Result of evaluation. */
    enum Outcome { PROCEED, NOT_MODIFIED }

    private Preconditions() {
    }

    static Outcome check(ObjectMeta m, String ifMatch, String ifNoneMatch, String ifModifiedSince,
                         String ifUnmodifiedSince, boolean copy) {
        long modifiedSec = m.lastModified() / 1000;
        if (ifMatch != null && !matches(ifMatch, m.etag())) {
            throw Errors.preconditionFailed(copy ? "x-oss-copy-source-if-match" : "If-Match");
        }
        if (ifMatch == null && ifUnmodifiedSince != null) {
            long t = Dates.parseHttpDate(ifUnmodifiedSince);
            if (t >= 0 && modifiedSec > t / 1000) {
                throw Errors.preconditionFailed(copy ? "x-oss-copy-source-if-unmodified-since" : "If-Unmodified-Since");
            }
        }
        if (ifNoneMatch != null) {
            if (matches(ifNoneMatch, m.etag())) {
                if (copy) {
                    throw Errors.preconditionFailed("x-oss-copy-source-if-none-match");
                }
                return Outcome.NOT_MODIFIED;
            }
        } else if (ifModifiedSince != null) {
            long t = Dates.parseHttpDate(ifModifiedSince);
            if (t >= 0 && modifiedSec <= t / 1000) {
                if (copy) {
                    throw Errors.preconditionFailed("x-oss-copy-source-if-modified-since");
                }
                return Outcome.NOT_MODIFIED;
            }
        }
        return Outcome.PROCEED;
    }

    private static boolean matches(String list, String etag) {
        for (String candidate : list.split(",")) {
            String c = candidate.trim();
            if (c.equals("*") || ObjectHeaders.unquote(c).equalsIgnoreCase(etag)) {
                return true;
            }
        }
        return false;
    }
}
