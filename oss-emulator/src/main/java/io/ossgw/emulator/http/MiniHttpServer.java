package io.ossgw.emulator.http;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A small HTTP/1.1 server: one virtual thread per connection, keep-alive, chunked request bodies,
 * {@code Expect: 100-continue}, 64 KiB socket buffers.
 *
 * <p>Written instead of {@code com.sun.net.httpserver} because the emulator needs control the JDK server
 * does not give: an abrupt TCP reset without a reply (fault injection), draining a request body before an
 * early error reply on a keep-alive connection, and HEAD replies carrying the object's Content-Length.
 */
public final class MiniHttpServer implements Closeable {
    private static final Logger LOG = Logger.getLogger(MiniHttpServer.class.getName());
    private static final int BUFFER = 64 * 1024;

    private final ServerSocket server;
    private final HttpHandler handler;
    private final ExecutorService workers;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private Thread acceptor;

    /**
     * Binds immediately.
     *
     * @param bind address to bind (e.g. 127.0.0.1)
     * @param port TCP port, 0 for an ephemeral one
     */
    public MiniHttpServer(InetAddress bind, int port, HttpHandler handler) throws IOException {
        this(bind, port, handler, Executors.newVirtualThreadPerTaskExecutor());
    }

    /** As above, running connections on {@code workers} (tests make it fail as an exhausted JVM would). */
    MiniHttpServer(InetAddress bind, int port, HttpHandler handler, ExecutorService workers) throws IOException {
        this.workers = workers;
        this.handler = handler;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.setReceiveBufferSize(BUFFER * 4);
        server.bind(new InetSocketAddress(bind, port), 512);
    }

    /** The bound port. */
    public int port() {
        return server.getLocalPort();
    }

    /** Starts accepting connections on a daemon platform thread. */
    public void start() {
        acceptor = Thread.ofPlatform().daemon().name("oss-emulator-accept-" + port()).start(this::acceptLoop);
    }

    /**
     * Accepts until {@link #close()}. Nothing thrown here may end the loop, or the process would live on accepting
     * nothing (issue 9 item 13: an OutOfMemoryError did that): an I/O error is logged, and an {@link Error} (no memory
     * or threads for the new connection) refuses that one connection with a 503 and goes on. Should the loop end
     * anyway, {@link #acceptorDied} ends the process with a clear message.
     */
    private void acceptLoop() {
        try {
            while (!closed) {
                Socket s = null;
                try {
                    s = server.accept();
                    open.add(s);
                    Socket conn = s;
                    workers.execute(() -> serve(conn));
                } catch (IOException e) {
                    if (!closed) {
                        LOG.log(Level.WARNING, "accept failed", e);
                    }
                } catch (Throwable t) {
                    refuse(s, t);
                }
            }
        } catch (Throwable t) {
            acceptorDied(t);
            return;
        }
        if (!closed) {
            acceptorDied(null);
        }
    }

    /** Answers 503 on a connection that could not be served and closes it; best effort, never throws. */
    private void refuse(Socket s, Throwable cause) {
        try {
            LOG.log(Level.SEVERE, "cannot serve a new connection: " + cause + "; refused with 503");
        } catch (Throwable ignored) {
            // logging needs memory too
        }
        if (s == null) {
            return;
        }
        open.remove(s);
        try (s) {
            s.getOutputStream().write(UNAVAILABLE);
        } catch (Throwable ignored) {
            // the client sees a closed connection instead
        }
    }

    private static final byte[] UNAVAILABLE = ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
            + "Content-Length: 25\r\nConnection: close\r\n\r\nemulator out of resources").getBytes(StandardCharsets.US_ASCII);

    /** The accept loop ended while the server is open: a process that accepts nothing must not live on. */
    private void acceptorDied(Throwable t) {
        System.err.println("FATAL: oss-emulator accept loop on port " + port() + " ended"
                + (t == null ? "" : " by " + t) + "; exiting (status 70)");
        System.err.flush();
        Runtime.getRuntime().halt(70);
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            socket.setSendBufferSize(BUFFER * 4);
            BufferedInputStream in = new BufferedInputStream(socket.getInputStream(), BUFFER);
            BufferedOutputStream out = new BufferedOutputStream(socket.getOutputStream(), BUFFER);
            InetSocketAddress remote = (InetSocketAddress) socket.getRemoteSocketAddress();
            while (!closed) {
                HttpRequest req;
                try {
                    req = HttpParser.read(in, remote);
                } catch (HttpParser.BadRequest e) {
                    byte[] msg = ("bad request: " + e.getMessage()).getBytes(StandardCharsets.UTF_8);
                    out.write(("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: " + msg.length
                            + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(msg);
                    out.flush();
                    return;
                }
                if (req == null) {
                    return;
                }
                if (!exchange(socket, req, out)) {
                    return;
                }
            }
        } catch (SocketException e) {
            // client went away or we reset the connection on purpose
        } catch (IOException e) {
            LOG.log(Level.FINE, "connection error", e);
        } finally {
            open.remove(socket);
        }
    }

    /** Runs one exchange; returns whether the connection may be reused. */
    private boolean exchange(Socket socket, HttpRequest req, BufferedOutputStream out) throws IOException {
        String conn = req.headers().first("Connection");
        boolean keepAlive = req.version().equals("HTTP/1.1")
                ? conn == null || !conn.equalsIgnoreCase("close")
                : conn != null && conn.equalsIgnoreCase("keep-alive");
        HttpExchange ex = new HttpExchange(socket, req, out, keepAlive);
        try {
            handler.handle(ex);
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            LOG.log(Level.WARNING, "handler failed for " + req.method() + " " + req.target(), e);
            if (!ex.responded()) {
                ex.header("Content-Type", "text/plain");
                ex.send(500, ("internal error: " + e).getBytes(StandardCharsets.UTF_8));
            }
            return false;
        } catch (Error e) {
            // e.g. OutOfMemoryError while storing a body: refuse this request, keep serving the others
            LOG.log(Level.SEVERE, "handler error for " + req.method() + " " + req.target() + ": " + e);
            if (e instanceof OutOfMemoryError) {
                // what would have ended the thread is shown to the process's handler: `ossgw emulator`'s heap guard
                // ends a process whose heap is exhausted (old generation nearly full) with its FATAL line, even when
                // no client goes on to make the collector thrash (issue 21 item 4); in tests without a guard, nothing
                Thread.UncaughtExceptionHandler guard = Thread.getDefaultUncaughtExceptionHandler();
                if (guard != null) {
                    guard.uncaughtException(Thread.currentThread(), e);
                }
            }
            if (!ex.responded()) {
                ex.header("Content-Type", "text/plain");
                ex.send(503, ("emulator out of resources: " + e).getBytes(StandardCharsets.UTF_8));
            }
            return false;
        }
        if (ex.aborted()) {
            return false;
        }
        if (!ex.responded()) {
            ex.send(500, "handler sent no response".getBytes(StandardCharsets.UTF_8));
            return false;
        }
        out.flush();
        return ex.reusable();
    }

    /** Stops accepting, closes every open connection and releases the port. */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        workers.shutdown();
        try {
            workers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (acceptor != null) {
            try {
                acceptor.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
