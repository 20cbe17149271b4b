package io.ossgw.emulator;

import io.ossgw.emulator.auth.Authenticator;
import io.ossgw.emulator.http.MiniHttpServer;
import io.ossgw.emulator.oss.OssHandler;
import io.ossgw.emulator.storage.Backend;
import io.ossgw.emulator.storage.DirectoryBackend;
import io.ossgw.emulator.storage.MemoryBackend;
import io.ossgw.emulator.storage.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An OSS-wire-compatible server for tests, benchmarks and the zero-config demo.
 *
 * <pre>{@code
 * try (OssEmulator emu = OssEmulator.builder().port(0).bucket("b1").credentials("ak", "sk").build().start()) {
 *     String endpoint = emu.endpoint(); // http://127.0.0.1:PORT
 * }
 * }</pre>
 *
 * Storage is in memory unless {@link Builder#dataDir(Path)} is set. Requests are counted per OSS operation
 * ({@link #counters()}) and faults can be injected ({@link #faults()}).
 */
public final class OssEmulator implements AutoCloseable {
    /** Default {@link Builder#heapSlowdown} line: 85% of the old generation in use after a collection. */
    public static final int DEFAULT_HEAP_SLOWDOWN_PERCENT = 85;
    private final Builder config;
    private final RequestCounters counters = new RequestCounters();
    private final FaultInjector faults = new FaultInjector();
    private ObjectStore store;
    private MiniHttpServer server;

    private OssEmulator(Builder config) {
        this.config = config;
    }

    /** A builder with defaults: 127.0.0.1, ephemeral port, memory storage, auth on, no buckets, no keys. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Opens the storage, creates the configured buckets and starts listening.
     *
     * @return this
     * @throws UncheckedIOException if the data directory cannot be used or the port cannot be bound
     */
    public synchronized OssEmulator start() {
        if (server != null) {
            return this;
        }
        try {
            Backend backend = config.dataDir == null ? new MemoryBackend(config.memoryLimit) : new DirectoryBackend(config.dataDir);
            store = new ObjectStore(backend);
            for (String b : config.buckets) {
                store.createBucket(b);
            }
            Authenticator auth = new Authenticator(config.credentials, config.authEnabled);
            HeapPressure heap = config.heapPressure != null ? config.heapPressure
                    : HeapPressure.ofHeap(config.heapSlowdownPercent);
            OssHandler handler = new OssHandler(store, auth, counters, faults, heap, config.virtualHostBase);
            server = new MiniHttpServer(InetAddress.getByName(config.bind), config.port, handler);
            server.start();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the OSS emulator: " + e.getMessage(), e);
        }
    }

    /** {@code http://HOST:PORT}, HOST being the bind address (127.0.0.1 when bound to a wildcard). */
    public String endpoint() {
        String host = config.bind;
        if (host.equals("0.0.0.0") || host.equals("::")) {
            host = "127.0.0.1";
        }
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return "http://" + host + ":" + port();
    }

    /** The bound TCP port. */
    public int port() {
        if (server == null) {
            throw new IllegalStateException("not started");
        }
        return server.port();
    }

    /** Per-operation request counters. */
    public RequestCounters counters() {
        return counters;
    }

    /** Fault injection switches. */
    public FaultInjector faults() {
        return faults;
    }

    /** Whether signatures are verified. */
    public boolean authEnabled() {
        return config.authEnabled;
    }

    /** {@code memory} or the data directory. */
    public String storageDescription() {
        return store == null ? (config.dataDir == null ? "memory" : config.dataDir.toString()) : store.describe();
    }

    /** Buckets created at start. */
    public List<String> buckets() {
        return List.copyOf(config.buckets);
    }

    /** Stops listening, closes connections and releases the port. Data in a data directory stays. */
    @Override
    public synchronized void close() {
        if (server != null) {
            server.close();
            server = null;
        }
        if (store != null) {
            store.close();
            store = null;
        }
    }

    /** Configuration of an {@link OssEmulator}. */
    public static final class Builder {
        private String bind = "127.0.0.1";
        private int port = 0;
        private Path dataDir;
        private final List<String> buckets = new ArrayList<>();
        private final Map<String, String> credentials = new LinkedHashMap<>();
        private boolean authEnabled = true;
        private String virtualHostBase;
        private long memoryLimit = -1;
        private int heapSlowdownPercent = DEFAULT_HEAP_SLOWDOWN_PERCENT;
        private HeapPressure heapPressure;

        private Builder() {
        }

        /** Address to bind (default 127.0.0.1). */
        public Builder bind(String address) {
            this.bind = address;
            return this;
        }

        /** TCP port, 0 for an ephemeral one (default 0). */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            this.port = port;
            return this;
        }

        /** Directory-backed storage that survives restarts; null keeps everything in memory. */
        public Builder dataDir(Path dir) {
            this.dataDir = dir;
            return this;
        }

        /** A bucket to create at start if missing (repeatable). */
        public Builder bucket(String name) {
            this.buckets.add(name);
            return this;
        }

        /** An accepted AccessKey pair (repeatable). */
        public Builder credentials(String accessKeyId, String accessKeySecret) {
            this.credentials.put(accessKeyId, accessKeySecret);
            return this;
        }

        /** Whether signatures are verified (default true; false for the demo only). */
        public Builder authEnabled(boolean enabled) {
            this.authEnabled = enabled;
            return this;
        }

        /** Base host for virtual-hosted requests: {@code Host: bucket.<base>[:port]}. */
        public Builder virtualHostBase(String base) {
            this.virtualHostBase = base;
            return this;
        }

        /**
         * With the in-memory store: most content bytes held at once; an upload that would exceed it is refused with
         * 507 InsufficientStorage. -1 (the default) for no limit.
         */
        public Builder memoryLimit(long bytes) {
            this.memoryLimit = bytes;
            return this;
        }

        /**
         * Requests that grow the store are answered 503 SlowDown while the heap's old generation is more than
         * {@code percent} full after a collection ({@link HeapPressure#ofHeap}); default
         * {@value OssEmulator#DEFAULT_HEAP_SLOWDOWN_PERCENT}, 100 turns it off.
         */
        public Builder heapSlowdown(int percent) {
            if (percent < 1 || percent > 100) {
                throw new IllegalArgumentException("heap slowdown percent out of range 1..100: " + percent);
            }
            this.heapSlowdownPercent = percent;
            return this;
        }

        /** Tests: decides heap pressure instead of the JVM's heap (overrides {@link #heapSlowdown}). */
        public Builder heapPressure(HeapPressure pressure) {
            this.heapPressure = pressure;
            return this;
        }

        /** The emulator (not started). */
        public OssEmulator build() {
            if (authEnabled && credentials.isEmpty()) {
                throw new IllegalStateException("auth is enabled but no credentials were given");
            }
            return new OssEmulator(this);
        }
    }
}
