package io.ossgw.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Deadlines that scale with how busy the machine is (issue 21 item 5), for every JUnit test that waits for something
 * to happen on another thread or in another process: the same factor as the Python tests' {@code
 * src/test/e2e/deadlines.py} and the packaging scripts' {@code slowdown.sh}, computed the same way (README "Run the
 * tests").
 *
 * <p>A test waits for a condition, never for a fixed time, and gives up only after a base time of a quiet machine
 * (with margin) times {@link #factor()}:
 *
 * <pre>
 *   factor() = OSSGW_TEST_SLOWDOWN (environment) or -Dossgw.test.slowdown, when set (a number >= 1: forced)
 *            = clamp(max(load average 1 min, 5 min) / CPUs, 1, {@value #MAX_FACTOR})   otherwise
 * </pre>
 *
 * <p>On a machine that other work keeps busy each runnable thread gets about CPUs / load of a core. The factor is
 * re-read while a wait runs ({@link #waitUntil}), at most once a second, and a wait only ever gets longer. The cap
 * keeps a hung test's worst case inside CI's 90 minutes. Shipped in oss-emulator's test jar, which every module's tests
 * depend on.
 */
public final class Slowdown {
    /** The environment variable (and, lower-cased with dots, the system property) that forces the factor. */
    public static final String ENV = "OSSGW_TEST_SLOWDOWN";

    /** The largest factor the load alone gives (load 10 on 2 CPUs). */
    public static final double MAX_FACTOR = 5.0;

    private static final Path LOADAVG = Path.of("/proc/loadavg");
    private static final long REREAD_NANOS = 1_000_000_000L;
    private static final long POLL_MILLIS = 10;

    private Slowdown() {}

    /**
     * How many times slower than a quiet machine this one is now: at least 1.
     *
     * @throws IllegalArgumentException if OSSGW_TEST_SLOWDOWN is set to something that is not a number
     */
    public static double factor() {
        String forced = System.getenv(ENV);
        if (forced == null || forced.isBlank()) {
            forced = System.getProperty("ossgw.test.slowdown");
        }
        if (forced != null && !forced.isBlank()) {
            try {
                return Math.max(1.0, Double.parseDouble(forced.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(ENV + " must be a number >= 1, not '" + forced + "'", e);
            }
        }
        try {
            String[] f = Files.readString(LOADAVG).strip().split("\\s+");
            double load = Math.max(Double.parseDouble(f[0]), Double.parseDouble(f[1]));
            return Math.min(MAX_FACTOR, Math.max(1.0, load / Runtime.getRuntime().availableProcessors()));
        } catch (IOException | RuntimeException e) {
            return 1.0; // no /proc/loadavg (not Linux): the base times
        }
    }

    /** {@code base} (what a quiet machine needs, with margin) times {@link #factor()}. */
    public static Duration scaled(Duration base) {
        return Duration.ofNanos((long) (base.toNanos() * factor()));
    }

    /** {@code baseMillis} times {@link #factor()}, in milliseconds. */
    public static long scaledMillis(long baseMillis) {
        return (long) (baseMillis * factor());
    }

    /**
     * Polls {@code condition} every 10 ms until it is true or {@code base} of a quiet machine, scaled (re-read once a
     * second, never shrinking), has passed.
     *
     * @return true as soon as the condition holds; its last answer once the time is up
     * @throws InterruptedException if interrupted while waiting
     */
    public static boolean waitUntil(BooleanSupplier condition, Duration base) throws InterruptedException {
        long start = System.nanoTime();
        long lastRead = start;
        double f = factor();
        while (!condition.getAsBoolean()) {
            long now = System.nanoTime();
            if (now - lastRead >= REREAD_NANOS) {
                f = Math.max(f, factor());
                lastRead = now;
            }
            if (now - start >= (long) (base.toNanos() * f)) {
                return condition.getAsBoolean();
            }
            Thread.sleep(POLL_MILLIS);
        }
        return true;
    }
}
