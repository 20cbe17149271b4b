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
    private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
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

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = server.accept();
                open.add(s);
                workers.execute(() -> serve(s));
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "accept failed", e);
                }
            }
        }
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
