package io.ossgw.emulator.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 9 item 13: an OutOfMemoryError on the accept thread (there: no memory to start the connection's thread) once
 * left the emulator alive and accepting nothing. Now that connection is refused with 503 and the next one is served.
 */
class AcceptLoopErrorTest {
    /** Runs tasks on virtual threads, except that the first {@code failures} submissions throw OutOfMemoryError. */
    private static final class FailingExecutor extends AbstractExecutorService {
        private final ExecutorService real = Executors.newVirtualThreadPerTaskExecutor();
        private final AtomicInteger failures;

        FailingExecutor(int failures) {
            this.failures = new AtomicInteger(failures);
        }

        @Override
        public void execute(Runnable task) {
            if (failures.getAndDecrement() > 0) {
                throw new OutOfMemoryError("unable to create native thread (test)");
            }
            real.execute(task);
        }

        @Override
        public void shutdown() {
            real.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            return real.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return real.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return real.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return real.awaitTermination(timeout, unit);
        }
    }

    @Test
    void anErrorOnTheAcceptThreadRefusesThatConnectionAndTheNextIsServed() throws Exception {
        try (MiniHttpServer server = new MiniHttpServer(InetAddress.getLoopbackAddress(), 0,
                ex -> ex.send(200, "ok".getBytes(StandardCharsets.UTF_8)), new FailingExecutor(2))) {
            server.start();
            assertThat(HttpStatus.get(server.port(), "/x")).isEqualTo(503);
            assertThat(HttpStatus.get(server.port(), "/x")).isEqualTo(503);
            assertThat(HttpStatus.get(server.port(), "/x")).isEqualTo(200);
            assertThat(HttpStatus.get(server.port(), "/x")).isEqualTo(200);
        }
    }
}
