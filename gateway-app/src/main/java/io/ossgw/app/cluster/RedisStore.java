package io.ossgw.app.cluster;

import io.ossgw.core.cluster.ClusterStoreException;
import io.ossgw.core.cluster.ClusterStoreException.Kind;
import io.smallrye.mutiny.Uni;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.impl.types.ErrorType;
import java.time.Duration;

/**
 * The connection to the cluster store (Valkey 7/8 or Redis 7) through the Vert.x Redis client that
 * {@code quarkus-redis-client} brings, on Quarkus's Vert.x: a small pool of connections for commands (reconnected by
 * the client after a loss), plus dedicated connections for pub/sub ({@link #connect}). Every blocking call has a
 * timeout and maps failures to {@link ClusterStoreException} kinds: unreachable (refused, reset, closed, no answer),
 * full ({@code OOM}), auth ({@code NOAUTH}, {@code WRONGPASS}), other. Each request's time and outcome go to the
 * {@link Recorder} (metrics).
 */
public final class RedisStore implements AutoCloseable {
  /** Where request timings go ({@code ossgw_cluster_store_requests_seconds}). */
  public interface Recorder {
    Recorder NONE = (op, outcome, nanos) -> {};

    /**
     * @param op what was asked (lease_acquire, lease_renew, publish, ...)
     * @param outcome {@code ok} or the failure kind in lower case
     */
    void record(String op, String outcome, long nanos);
  }

  private final Redis redis;
  private final ClusterSettings settings;
  private final Recorder recorder;

  /** Creates the client (no connection is made until the first request). */
  public RedisStore(Vertx vertx, ClusterSettings settings, Recorder recorder) {
    this.settings = settings;
    this.recorder = recorder;
    NetClientOptions net = new NetClientOptions().setConnectTimeout((int) settings.timeout().toMillis())
        .setTcpKeepAlive(true);
    if (settings.tls()) {
      net.setSsl(true).setHostnameVerificationAlgorithm("HTTPS");
      settings.tlsCaFile().ifPresent(ca -> net.setTrustOptions(new PemTrustOptions().addCertPath(ca.toString())));
    }
    RedisOptions options = new RedisOptions().setConnectionString(settings.connectionString())
        .setMaxPoolSize(4).setMaxPoolWaiting(256).setMaxWaitingHandlers(4096).setNetClientOptions(net);
    settings.password().ifPresent(options::setPassword);
    this.redis = Redis.createClient(vertx, options);
  }

  /** The settings this store was made from. */
  public ClusterSettings settings() {
    return settings;
  }

  /**
   * Sends one command and waits for its reply.
   *
   * @param op the operation's name for metrics
   * @param timeout the longest to wait
   * @return the reply (null for a nil reply)
   * @throws ClusterStoreException on any failure, the command's fate then unknown for UNREACHABLE
   */
  public Response call(String op, Request request, Duration timeout) {
    long t0 = System.nanoTime();
    try {
      Response r = redis.send(request).await().atMost(timeout);
      recorder.record(op, "ok", System.nanoTime() - t0);
      return r;
    } catch (RuntimeException e) {
      ClusterStoreException x = failure(op, e, timeout);
      recorder.record(op, x.kind().name().toLowerCase(java.util.Locale.ROOT), System.nanoTime() - t0);
      throw x;
    }
  }

  /**
   * Runs a Lua script: EVALSHA (the script's body is sent once per server, not with every call), EVAL when the server
   * does not have it yet ({@code NOSCRIPT}, e.g. after a restart).
   *
   * @param op the operation's name for metrics
   * @param script the Lua source
   * @param keys the KEYS the script touches
   * @param args its ARGV
   * @return the script's reply (null for nil / false)
   * @throws ClusterStoreException on any failure
   */
  public Response eval(String op, String script, java.util.List<String> keys, java.util.List<String> args) {
    String sha = shas.computeIfAbsent(script, RedisStore::sha1);
    try {
      return call(op, withArgs(Request.cmd(io.vertx.mutiny.redis.client.Command.EVALSHA).arg(sha), keys, args),
          settings.timeout());
    } catch (ClusterStoreException e) {
      if (e.kind() != Kind.OTHER || e.getMessage() == null || !e.getMessage().contains("NOSCRIPT")) {
        throw e;
      }
      return call(op, withArgs(Request.cmd(io.vertx.mutiny.redis.client.Command.EVAL).arg(script), keys, args),
          settings.timeout());
    }
  }

  /** Lua source -> its SHA-1 (EVALSHA's name of it). */
  private final java.util.concurrent.ConcurrentHashMap<String, String> shas =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static Request withArgs(Request r, java.util.List<String> keys, java.util.List<String> args) {
    r.arg(keys.size());
    keys.forEach(r::arg);
    args.forEach(r::arg);
    return r;
  }

  private static String sha1(String script) {
    try {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-1")
          .digest(script.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The fields of an HGETALL reply, in either protocol (a map in RESP3; field, value, field, value in RESP2).
   *
   * @param r the reply (null: none)
   * @return field to value, in the reply's order
   */
  public static java.util.Map<String, Response> hashFields(Response r) {
    java.util.Map<String, Response> out = new java.util.LinkedHashMap<>();
    if (r == null) {
      return out;
    }
    if (r.isMap()) {
      for (String k : r.getKeys()) {
        out.put(k, r.get(k));
      }
    } else {
      for (int i = 0; i + 1 < r.size(); i += 2) {
        out.put(r.get(i).toString(), r.get(i + 1));
      }
    }
    return out;
  }

  /** Sends one command without waiting; {@code onFailure} gets the mapped failure (on a Vert.x thread). */
  public void send(String op, Request request, java.util.function.Consumer<ClusterStoreException> onFailure) {
    long t0 = System.nanoTime();
    redis.send(request).ifNoItem().after(settings.timeout()).fail().subscribe().with(
        r -> recorder.record(op, "ok", System.nanoTime() - t0),
        e -> {
          ClusterStoreException x = failure(op, e, settings.timeout());
          recorder.record(op, x.kind().name().toLowerCase(java.util.Locale.ROOT), System.nanoTime() - t0);
          onFailure.accept(x);
        });
  }

  /** A dedicated connection (pub/sub), within the timeout. @throws ClusterStoreException */
  public RedisConnection connect(Duration timeout) {
    try {
      Uni<RedisConnection> c = redis.connect();
      return c.await().atMost(timeout);
    } catch (RuntimeException e) {
      throw failure("connect", e, timeout);
    }
  }

  /** Maps a client failure to a store failure, naming the store (never its password). */
  ClusterStoreException failure(String op, Throwable e, Duration timeout) {
    Throwable t = e;
    while ((t instanceof java.util.concurrent.CompletionException || t.getClass() == RuntimeException.class)
        && t.getCause() != null) {
      t = t.getCause();
    }
    String where = op + " on " + settings.displayUrl();
    if (t instanceof io.smallrye.mutiny.TimeoutException) {
      return new ClusterStoreException(Kind.UNREACHABLE, where + ": no answer within " + timeout.toMillis() + " ms", t);
    }
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    if (t instanceof ErrorType) {
      if (m.startsWith("OOM") || m.contains("OOM command not allowed")) {
        return new ClusterStoreException(Kind.FULL, where + ": the store is full (" + m + "); raise its maxmemory "
            + "or free it: nothing was changed", t);
      }
      if (m.startsWith("NOAUTH") || m.startsWith("WRONGPASS") || m.contains("AUTH")) {
        return new ClusterStoreException(Kind.AUTH, where + ": " + m + " (ossgw.cluster.password-file or "
            + "OSSGW_CLUSTER_PASSWORD)", t);
      }
      if (m.startsWith("LOADING") || m.startsWith("BUSY") || m.startsWith("TRYAGAIN")
          || m.startsWith("CONNECTION_CLOSED")) { // the last is the client's own: the socket closed under a request
        return new ClusterStoreException(Kind.UNREACHABLE, where + ": " + m, t);
      }
      return new ClusterStoreException(Kind.OTHER, where + ": " + m, t);
    }
    return new ClusterStoreException(Kind.UNREACHABLE, where + ": " + m, t);
  }

  @Override
  public void close() {
    redis.close();
  }
}
