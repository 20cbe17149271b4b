package io.ossgw.emulator;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Command line: {@code EmulatorMain [--port 9000] [--bind 127.0.0.1] [--data DIR] [--bucket NAME]...
 * [--access-key AK (--secret-key SK | --secret-key-file FILE)] [--virtual-host-base HOST] [--port-file FILE]
 * [--memory-limit BYTES] [--heap-slowdown PERCENT]}.
 * Serves until SIGTERM or SIGINT. Exit code 2 on bad arguments.
 *
 * <p>The secret can stay off the command line (where {@code ps} and {@code /proc/PID/cmdline} show it to every
 * local user): {@code --secret-key-file FILE} reads it from the first line of FILE, and without either option the
 * environment variable {@value #SECRET_ENV} gives it (as {@code OSS_ACCESS_KEY_SECRET} does for ossgw).
 */
public final class EmulatorMain {
    /** Default TCP port. */
    public static final int DEFAULT_PORT = 9000;

    private EmulatorMain() {
    }

    /** The environment variable that gives the secret when neither --secret-key nor --secret-key-file does. */
    public static final String SECRET_ENV = "OSSGW_EMULATOR_SECRET_KEY";

    static final String USAGE = """
            Usage: ossgw emulator [options]
              --port PORT               TCP port (default 9000; 0 = pick a free port)
              --bind ADDR               address to bind (default 127.0.0.1)
              --data DIR                keep objects in DIR (survives restarts); default: in memory
              --bucket NAME             create bucket NAME at start (repeatable)
              --access-key AK           accepted AccessKey ID (with --secret-key)
              --secret-key SK           its secret (visible in ps: prefer the two below); without a key
                                        pair, authentication is OFF
              --secret-key-file FILE    read the secret from FILE (first line)
                                        (else the environment variable OSSGW_EMULATOR_SECRET_KEY gives it)
              --virtual-host-base HOST  also accept virtual-hosted requests (Host: bucket.HOST)
              --port-file FILE          write the bound port to FILE once listening
              --memory-limit BYTES      in-memory store only: refuse uploads (507 InsufficientStorage) that
                                        would hold more than BYTES of content (suffix K, M, G allowed)
              --heap-slowdown PERCENT   answer uploads 503 SlowDown while the Java heap's old generation is
                                        more than PERCENT full after a collection (default 85; 100 = never)
              --help                    show this help
            Admin endpoints (loopback only): GET /-/health, GET /-/counters, POST /-/counters/reset,
              GET|POST|DELETE /-/faults""";

    /** Thrown for invalid arguments. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String msg) {
            super(msg);
        }
    }

    /** Parsed options. */
    record Options(int port, String bind, Path data, List<String> buckets, String accessKey, String secretKey,
                   String virtualHostBase, Path portFile, boolean help, long memoryLimit, int heapSlowdown) {
    }

    static Options parse(String[] args, Map<String, String> env) throws UsageException {
        int port = DEFAULT_PORT;
        String bind = "127.0.0.1";
        Path data = null;
        List<String> buckets = new ArrayList<>();
        String ak = null;
        String sk = null;
        Path skFile = null;
        String vhost = null;
        Path portFile = null;
        long memoryLimit = -1;
        int heapSlowdown = OssEmulator.DEFAULT_HEAP_SLOWDOWN_PERCENT;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                return new Options(port, bind, data, buckets, ak, sk, vhost, portFile, true, memoryLimit, heapSlowdown);
            }
            String value;
            int eq = a.indexOf('=');
            String name = eq > 0 && a.startsWith("--") ? a.substring(0, eq) : a;
            if (eq > 0 && a.startsWith("--")) {
                value = a.substring(eq + 1);
            } else {
                if (i + 1 >= args.length) {
                    throw new UsageException("missing value for " + a);
                }
                value = args[++i];
            }
            switch (name) {
                case "--port" -> {
                    try {
                        port = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        throw new UsageException("--port needs a number, got '" + value + "'");
                    }
                    if (port < 0 || port > 65535) {
                        throw new UsageException("--port must be within 0..65535");
                    }
                }
                case "--bind" -> bind = value;
                case "--data" -> data = Path.of(value);
                case "--bucket" -> buckets.add(value);
                case "--access-key" -> ak = value;
                case "--secret-key" -> sk = value;
                case "--secret-key-file" -> skFile = Path.of(value);
                case "--virtual-host-base" -> vhost = value;
                case "--port-file" -> portFile = Path.of(value);
                case "--memory-limit" -> memoryLimit = bytes(value);
                case "--heap-slowdown" -> heapSlowdown = percent(value);
                default -> throw new UsageException("unknown option " + name);
            }
        }
        if (sk != null && skFile != null) {
            throw new UsageException("give either --secret-key or --secret-key-file, not both");
        }
        if (skFile != null) {
            sk = readSecret(skFile);
        } else if (sk == null && ak != null) {
            sk = env.get(SECRET_ENV);
        }
        if ((ak == null) != (sk == null || sk.isEmpty())) {
            throw new UsageException("--access-key and a secret (--secret-key, --secret-key-file or " + SECRET_ENV
                    + ") go together");
        }
        for (String b : buckets) {
            if (!b.matches("[a-z0-9][a-z0-9-]{1,61}[a-z0-9]")) {
                throw new UsageException("invalid bucket name '" + b + "' (3-63 of a-z, 0-9, '-')");
            }
        }
        if (memoryLimit > 0 && data != null) {
            throw new UsageException("--memory-limit applies to the in-memory store, not to --data");
        }
        return new Options(port, bind, data, buckets, ak, sk, vhost, portFile, false, memoryLimit, heapSlowdown);
    }

    private static int percent(String v) throws UsageException {
        try {
            int p = Integer.parseInt(v.strip());
            if (p >= 1 && p <= 100) {
                return p;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new UsageException("--heap-slowdown needs a percentage 1..100, got '" + v + "'");
    }

    /** {@code 123}, {@code 64K}, {@code 512M}, {@code 2G} (binary units) as bytes. */
    private static long bytes(String v) throws UsageException {
        String t = v.strip().toUpperCase(java.util.Locale.ROOT);
        int shift = t.endsWith("K") ? 10 : t.endsWith("M") ? 20 : t.endsWith("G") ? 30 : 0;
        try {
            long n = Long.parseLong(shift == 0 ? t : t.substring(0, t.length() - 1));
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new UsageException("--memory-limit needs a positive size in bytes (K, M, G allowed), got '" + v + "'");
        }
    }

    /** The first line of {@code file}, without its line end. */
    private static String readSecret(Path file) throws UsageException {
        try {
            String s = Files.readString(file, StandardCharsets.UTF_8);
            int nl = s.indexOf('\n');
            return (nl < 0 ? s : s.substring(0, nl)).strip();
        } catch (IOException e) {
            throw new UsageException("cannot read --secret-key-file " + file + ": " + e.getMessage());
        }
    }

    /** Runs the emulator until the process is signalled. */
    public static void main(String[] args) throws Exception {
        int code = run(args, System.getenv(), System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) throws Exception {
        Options o;
        try {
            o = parse(args, env);
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (o.help()) {
            out.println(USAGE);
            return 0;
        }
        OssEmulator.Builder b = OssEmulator.builder().bind(o.bind()).port(o.port()).dataDir(o.data())
                .virtualHostBase(o.virtualHostBase()).memoryLimit(o.memoryLimit()).heapSlowdown(o.heapSlowdown());
        o.buckets().forEach(b::bucket);
        if (o.accessKey() != null) {
            b.credentials(o.accessKey(), o.secretKey()).authEnabled(true);
        } else {
            err.println("WARNING: no --access-key/--secret-key given: authentication is OFF (demo mode)");
            b.authEnabled(false);
        }
        OssEmulator emu;
        try {
            emu = b.build().start();
        } catch (RuntimeException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            emu.close();
            stop.countDown();
        }, "oss-emulator-shutdown"));
        if (o.portFile() != null) {
            writePortFile(o.portFile(), emu.port());
        }
        out.println("OSS emulator listening on " + emu.endpoint() + " (bucket "
                + (o.buckets().isEmpty() ? "none" : String.join(",", o.buckets())) + ", data "
                + (o.data() == null ? "memory" : o.data().toString()) + ", auth " + (emu.authEnabled() ? "on" : "off") + ")");
        out.flush();
        stop.await();
        return 0;
    }

    /** Writes the port atomically, so a reader polling for the file never sees it half-written. */
    private static void writePortFile(Path file, int port) throws IOException {
        Path abs = file.toAbsolutePath();
        Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
        Files.writeString(tmp, Integer.toString(port), StandardCharsets.US_ASCII);
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
