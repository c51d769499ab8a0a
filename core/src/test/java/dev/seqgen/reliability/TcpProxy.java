package dev.seqgen.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on the loopback interface between the generators and a database server, which a test can cut
 * and restore. Plain sockets and two threads per connection: enough for a few pooled connections.
 *
 * <ul>
 *   <li>{@link Cut#RESET}, what a server restart looks like: every connection is closed at once and new ones
 *       are closed as soon as they are accepted, so drivers fail fast with a connection error.
 *   <li>{@link Cut#BLACKHOLE}, what a network partition looks like: nothing is forwarded and nothing is
 *       closed, so drivers wait until their own timeouts. Connections from before the partition are closed
 *       when it heals, as a firewall or NAT that lost its state would.
 * </ul>
 */
final class TcpProxy implements AutoCloseable {

    /** How a connection is cut. */
    enum Cut { RESET, BLACKHOLE }

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Object lock = new Object();
    private final Set<Socket> sockets = new HashSet<>(); // guarded by lock
    private Cut cut; // guarded by lock; null when forwarding
    private final AtomicInteger accepted = new AtomicInteger();

    private TcpProxy(String host, int port) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.target = new InetSocketAddress(host, port);
        daemon("proxy-accept-" + server.getLocalPort(), this::acceptLoop);
    }

    /** Starts a proxy to {@code host:port} on a free loopback port. */
    static TcpProxy to(String host, int port) throws IOException {
        return new TcpProxy(host, port);
    }

    /** The loopback port the proxy listens on. */
    int port() {
        return server.getLocalPort();
    }

    /** How many client connections the proxy has accepted so far. */
    int accepted() {
        return accepted.get();
    }

    /** Cuts the connection to the server until {@link #restore()}. */
    void cut(Cut how) {
        synchronized (lock) {
            cut = how;
            if (how == Cut.RESET) {
                closeAll();
            }
        }
    }

    /** Forwards again. */
    void restore() {
        synchronized (lock) {
            if (cut == Cut.BLACKHOLE) {
                closeAll();
            }
            cut = null;
            lock.notifyAll();
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // nothing to do
        }
        synchronized (lock) {
            closeAll();
            lock.notifyAll();
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
                client.setTcpNoDelay(true);
            } catch (IOException e) {
                return;
            }
            accepted.incrementAndGet();
            synchronized (lock) {
                if (cut == Cut.RESET) {
                    closeQuietly(client);
                    continue;
                }
                sockets.add(client);
            }
            daemon("proxy-connect-" + client.getPort(), () -> connect(client));
        }
    }

    private void connect(Socket client) {
        if (!awaitForwarding()) {
            closeQuietly(client);
            return;
        }
        Socket upstream = new Socket();
        try {
            upstream.setTcpNoDelay(true);
            upstream.connect(target, 2_000);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(upstream);
            return;
        }
        synchronized (lock) {
            if (cut != null || client.isClosed()) {
                closeQuietly(client);
                closeQuietly(upstream);
                return;
            }
            sockets.add(upstream);
        }
        daemon("proxy-up-" + client.getPort(), () -> pump(client, upstream));
        pump(upstream, client);
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (;;) {
                int n = in.read(buffer);
                if (!awaitForwarding() || n < 0) {
                    break;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // the connection is gone; close both sides below
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            synchronized (lock) {
                sockets.remove(from);
                sockets.remove(to);
            }
        }
    }

    /** Waits while black-holed; returns whether forwarding may go on. */
    private boolean awaitForwarding() {
        synchronized (lock) {
            while (cut == Cut.BLACKHOLE && !server.isClosed()) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return cut == null && !server.isClosed();
        }
    }

    private void closeAll() {
        List<Socket> all = new ArrayList<>(sockets);
        sockets.clear();
        all.forEach(TcpProxy::closeQuietly);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    private static void daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }
}
