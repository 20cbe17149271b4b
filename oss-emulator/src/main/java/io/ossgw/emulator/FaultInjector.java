package io.ossgw.emulator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Faults applied to OSS requests before they are processed (after routing, so rules can name
 * operations): added latency, connection resets (the socket is closed with a TCP RST and no reply), lost
 * replies (the request is carried out, then the connection is reset instead of answered: what a client sees when
 * a reply is lost on the way or its socket times out first), and error replies with a status and OSS code (e.g.
 * 503 SlowDown, 500 InternalError) at a rate or for the next N matching requests. Admin requests under
 * {@code /-/} are never affected.
 *
 * <p>An empty or null operation set means every operation. Thread-safe; changes apply to the next request.
 */
public final class FaultInjector {
    /** What to do with one request. */
    public sealed interface Decision permits Proceed, Reset, DropReply, Fail {
    }

    /** Process normally. */
    public record Proceed() implements Decision {
    }

    /** Close the connection abruptly. */
    public record Reset() implements Decision {
    }

    /** Carry the request out, then close the connection abruptly instead of sending the reply. */
    public record DropReply() implements Decision {
    }

    /** Reply with an error. */
    public record Fail(int status, String code) implements Decision {
    }

    private record Rule(int status, String code, double rate, Set<String> ops, AtomicInteger remaining) {
        boolean matches(String op) {
            return ops == null || ops.isEmpty() || ops.contains(op);
        }
    }

    private record ResetRule(double rate, Set<String> ops) {
    }

    private final List<Rule> rules = new CopyOnWriteArrayList<>();
    /** Faults injected since start (not reset by {@link #clear()}): what a reliability run reports. */
    private final java.util.concurrent.atomic.AtomicLong injectedErrors = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong injectedResets = new java.util.concurrent.atomic.AtomicLong();
    private final AtomicInteger dropReplies = new AtomicInteger();
    private volatile Set<String> dropReplyOps = Set.of();
    private volatile ResetRule reset;
    private volatile long latencyMillis;

    /**
     * Fails a fraction of matching requests.
     *
     * @param status HTTP status, e.g. 503
     * @param code   OSS error code, e.g. {@code SlowDown}
     * @param rate   probability 0..1
     * @param ops    operation names, or null/empty for all
     */
    public FaultInjector failWith(int status, String code, double rate, Set<String> ops) {
        checkRate(rate);
        rules.add(new Rule(status, code, rate, ops == null ? Set.of() : Set.copyOf(ops), null));
        return this;
    }

    /** Fails the next {@code n} matching requests. */
    public FaultInjector failNext(int n, int status, String code, Set<String> ops) {
        if (n <= 0) {
            throw new IllegalArgumentException("n must be positive");
        }
        rules.add(new Rule(status, code, 1.0, ops == null ? Set.of() : Set.copyOf(ops), new AtomicInteger(n)));
        return this;
    }

    /** Adds {@code delay} before every request (zero to turn off). */
    public FaultInjector latency(Duration delay) {
        latencyMillis = Math.max(0, delay.toMillis());
        return this;
    }

    /** Resets a fraction {@code rate} (0..1) of connections, at request arrival, for all operations. */
    public FaultInjector resetConnections(double rate) {
        return resetConnections(rate, null);
    }

    /** Resets a fraction {@code rate} of requests of the given operations (null/empty = all). */
    public FaultInjector resetConnections(double rate, Set<String> ops) {
        checkRate(rate);
        reset = rate <= 0 ? null : new ResetRule(rate, ops == null ? Set.of() : Set.copyOf(ops));
        return this;
    }

    /**
     * Carries out the next {@code n} matching requests but loses their replies: the connection is reset once the
     * request has been processed (a client then cannot tell whether it happened, and may retry it).
     *
     * @param ops operation names, or null/empty for all
     */
    public FaultInjector dropRepliesNext(int n, Set<String> ops) {
        if (n <= 0) {
            throw new IllegalArgumentException("n must be positive");
        }
        dropReplyOps = ops == null ? Set.of() : Set.copyOf(ops);
        dropReplies.set(n);
        return this;
    }

    /** Removes every fault. */
    public FaultInjector clear() {
        rules.clear();
        dropReplies.set(0);
        reset = null;
        latencyMillis = 0;
        return this;
    }

    /** Current added latency in ms. */
    public long latencyMillis() {
        return latencyMillis;
    }

    private static void checkRate(double rate) {
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("rate must be within 0..1: " + rate);
        }
    }

    /** Sleeps for the configured latency, then decides the fate of a request of {@code operation}. */
    public Decision apply(String operation) {
        long delay = latencyMillis;
        if (delay > 0) {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        ResetRule r = reset;
        if (r != null && (r.ops().isEmpty() || r.ops().contains(operation)) && rnd.nextDouble() < r.rate()) {
            injectedResets.incrementAndGet();
            return new Reset();
        }
        Set<String> dropOps = dropReplyOps;
        if ((dropOps.isEmpty() || dropOps.contains(operation))
                && dropReplies.getAndUpdate(x -> x > 0 ? x - 1 : 0) > 0) {
            injectedResets.incrementAndGet();
            return new DropReply();
        }
        for (Rule rule : rules) {
            if (!rule.matches(operation)) {
                continue;
            }
            if (rule.remaining() != null) {
                if (rule.remaining().getAndUpdate(x -> x > 0 ? x - 1 : 0) > 0) {
                    injectedErrors.incrementAndGet();
                    return new Fail(rule.status(), rule.code());
                }
                rules.remove(rule);
                continue;
            }
            if (rnd.nextDouble() < rule.rate()) {
                injectedErrors.incrementAndGet();
                return new Fail(rule.status(), rule.code());
            }
        }
        return new Proceed();
    }

    /** A JSON description of the active faults (for {@code GET /-/faults}). */
    public String toJson() {
        List<String> items = new ArrayList<>();
        for (Rule r : rules) {
            items.add("{\"status\":" + r.status() + ",\"code\":\"" + r.code() + "\",\"rate\":" + r.rate()
                    + (r.remaining() != null ? ",\"remaining\":" + r.remaining().get() : "")
                    + ",\"ops\":\"" + String.join(",", r.ops()) + "\"}");
        }
        ResetRule rr = reset;
        return "{\"latencyMs\":" + latencyMillis + ",\"resetRate\":" + (rr == null ? 0 : rr.rate())
                + ",\"dropReplies\":" + dropReplies.get()
                + ",\"errors\":[" + String.join(",", items) + "],\"injectedErrors\":" + injectedErrors.get()
                + ",\"injectedResets\":" + injectedResets.get() + "}";
    }
}
