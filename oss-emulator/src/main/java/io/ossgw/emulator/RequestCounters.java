package io.ossgw.emulator;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-operation request counts, keyed by OSS API name ({@code HeadObject}, {@code GetObjectMeta},
 * {@code PutObject}, {@code ListObjectsV2}, {@code UploadPart}, ...), plus request/response body bytes.
 *
 * <p>Every request that reaches the OSS router is counted once under its operation, whatever its outcome
 * (errors, injected faults and SDK retries included), as OSS bills requests. Admin requests under
 * {@code /-/} are not counted.
 */
public final class RequestCounters {
    /** Snapshot key of the request body bytes received. */
    public static final String BYTES_RECEIVED = "BytesReceived";
    /** Snapshot key of the response body bytes sent. */
    public static final String BYTES_SENT = "BytesSent";

    private final Map<String, LongAdder> ops = new ConcurrentHashMap<>();
    private final LongAdder received = new LongAdder();
    private final LongAdder sent = new LongAdder();

    /** Counts one request of {@code operation}. */
    public void increment(String operation) {
        ops.computeIfAbsent(operation, k -> new LongAdder()).increment();
    }

    /** Adds body byte counts of one exchange. */
    public void addBytes(long receivedBytes, long sentBytes) {
        received.add(receivedBytes);
        sent.add(sentBytes);
    }

    /** Requests of {@code operation} so far (0 if none); {@link #BYTES_RECEIVED}/{@link #BYTES_SENT} also work. */
    public long get(String operation) {
        if (BYTES_RECEIVED.equals(operation)) {
            return received.sum();
        }
        if (BYTES_SENT.equals(operation)) {
            return sent.sum();
        }
        LongAdder a = ops.get(operation);
        return a == null ? 0 : a.sum();
    }

    /** Request body bytes received. */
    public long bytesReceived() {
        return received.sum();
    }

    /** Response body bytes sent. */
    public long bytesSent() {
        return sent.sum();
    }

    /** Total requests over all operations (bytes not included). */
    public long total() {
        return ops.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** Sorted copy: operation name to count, plus {@code BytesReceived} and {@code BytesSent}. */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new TreeMap<>();
        ops.forEach((k, v) -> {
            long n = v.sum();
            if (n > 0) {
                m.put(k, n);
            }
        });
        m.put(BYTES_RECEIVED, received.sum());
        m.put(BYTES_SENT, sent.sum());
        return m;
    }

    /** Sets everything back to zero. */
    public void reset() {
        ops.values().forEach(LongAdder::reset);
        received.reset();
        sent.reset();
    }

    /** The snapshot as a flat JSON object. */
    public String toJson() {
        StringBuilder sb = new StringBuilder("{");
        snapshot().forEach((k, v) -> {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append('"').append(k).append("\":").append(v);
        });
        return sb.append('}').toString();
    }
}
