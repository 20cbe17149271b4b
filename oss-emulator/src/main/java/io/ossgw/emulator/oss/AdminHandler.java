package io.ossgw.emulator.oss;

import io.ossgw.emulator.FaultInjector;
import io.ossgw.emulator.RequestCounters;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Admin endpoints under {@code /-/} (not a valid bucket name), without authentication, loopback clients only:
 * <ul>
 *   <li>{@code GET /-/health} → {@code {"status":"ok"}}</li>
 *   <li>{@code GET /-/counters} → flat JSON object of operation counts plus BytesReceived/BytesSent</li>
 *   <li>{@code POST /-/counters/reset}</li>
 *   <li>{@code GET /-/faults} → the active faults as JSON</li>
 *   <li>{@code POST /-/faults?status=503&code=SlowDown&rate=0.2&ops=GetObject,PutObject} (error rate);
 *       {@code ...&next=N} instead of rate for the next N matching requests;
 *       {@code latencyMs=MS}; {@code resetRate=R} (with optional {@code ops}); {@code dropReplies=N} (with optional
 *       {@code ops}): the next N matching requests are carried out and their replies lost (connection reset);
 *       parameters combine</li>
 *   <li>{@code DELETE /-/faults} → clears every fault</li>
 * </ul>
 */
final class AdminHandler {
    private final RequestCounters counters;
    private final FaultInjector faults;

    AdminHandler(RequestCounters counters, FaultInjector faults) {
        this.counters = counters;
        this.faults = faults;
    }

    void handle(OssRequest r, String path) throws IOException {
        if (!r.exchange().request().remote().getAddress().isLoopbackAddress()) {
            r.json(403, "{\"error\":\"admin endpoints are loopback-only\"}");
            return;
        }
        String m = r.method();
        try {
            switch (path) {
                case "/-/health" -> r.json(200, "{\"status\":\"ok\"}");
                case "/-/counters" -> r.json(200, counters.toJson());
                case "/-/counters/reset" -> {
                    requirePost(m);
                    counters.reset();
                    r.json(200, "{}");
                }
                case "/-/faults" -> faults(r, m);
                default -> r.json(404, "{\"error\":\"unknown admin path\"}");
            }
        } catch (IllegalArgumentException e) {
            r.json(400, "{\"error\":\"" + e.getMessage().replace("\"", "'") + "\"}");
        }
    }

    private static void requirePost(String m) {
        if (!m.equals("POST")) {
            throw new IllegalArgumentException("use POST");
        }
    }

    private void faults(OssRequest r, String m) throws IOException {
        switch (m) {
            case "GET" -> r.json(200, faults.toJson());
            case "DELETE" -> {
                faults.clear();
                r.json(200, faults.toJson());
            }
            case "POST" -> {
                Set<String> ops = r.param("ops") == null || r.param("ops").isBlank() ? Set.of()
                        : new HashSet<>(Arrays.asList(r.param("ops").split(",")));
                if (r.param("latencyMs") != null) {
                    faults.latency(Duration.ofMillis(Long.parseLong(r.param("latencyMs"))));
                }
                if (r.param("resetRate") != null) {
                    faults.resetConnections(Double.parseDouble(r.param("resetRate")), ops);
                }
                if (r.param("dropReplies") != null) {
                    faults.dropRepliesNext(Integer.parseInt(r.param("dropReplies")), ops);
                }
                if (r.param("status") != null) {
                    int status = Integer.parseInt(r.param("status"));
                    String code = r.param("code") != null ? r.param("code") : defaultCode(status);
                    if (r.param("next") != null) {
                        faults.failNext(Integer.parseInt(r.param("next")), status, code, ops);
                    } else {
                        double rate = r.param("rate") == null ? 1.0 : Double.parseDouble(r.param("rate"));
                        faults.failWith(status, code, rate, ops);
                    }
                }
                r.json(200, faults.toJson());
            }
            default -> throw new IllegalArgumentException("use GET, POST or DELETE");
        }
    }

    /** SlowDown for 503, InternalError for 500, else a generic code. */
    static String defaultCode(int status) {
        return switch (status) {
            case 503 -> "SlowDown";
            case 500 -> "InternalError";
            default -> "InjectedFault";
        };
    }
}
