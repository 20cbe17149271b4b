package io.ossgw.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSException;
import com.aliyun.oss.common.comm.SignVersion;
import io.ossgw.testsupport.Slowdown;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The emulator as a process ({@code java EmulatorMain}) with its secret given by {@code --secret-key-file} or by the
 * environment ({@link EmulatorMain#SECRET_ENV}): authentication is on with that secret (the SDK signs with it, a wrong
 * one is refused), and the secret is nowhere in {@code /proc/PID/cmdline}, which every local user can read (issue 9
 * item 10).
 */
class SecretOffTheCommandLineTest {
    private static final String SECRET = "s3cr3t-off-the-cmdline";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"file", "env"})
    void theSecretWorksWithTheSdkAndIsNotInTheCommandLine(String from) throws Exception {
        Path portFile = dir.resolve("port");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), EmulatorMain.class.getName(), "--port", "0",
                "--port-file", portFile.toString(), "--bucket", "secret-test", "--access-key", Sdk.AK));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("out.log").toFile());
        pb.environment().remove(EmulatorMain.SECRET_ENV);
        if (from.equals("file")) {
            Path sk = dir.resolve("sk");
            Files.writeString(sk, SECRET + "\n");
            Files.setPosixFilePermissions(sk, PosixFilePermissions.fromString("rw-------"));
            cmd.addAll(List.of("--secret-key-file", sk.toString()));
            pb.command(cmd);
        } else {
            pb.environment().put(EmulatorMain.SECRET_ENV, SECRET);
        }
        Process p = pb.start();
        try {
            assertThat(Slowdown.waitUntil(() -> Files.exists(portFile) || !p.isAlive(), Duration.ofSeconds(30)))
                    .as("port file within 30 s (scaled)").isTrue();
            assertThat(Files.exists(portFile)).as("emulator exited: %s", Files.readString(dir.resolve("out.log")))
                    .isTrue();
            String endpoint = "http://127.0.0.1:" + Files.readString(portFile).strip();
            String cmdline = new String(Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline")),
                    StandardCharsets.UTF_8).replace('\0', ' ');
            assertThat(cmdline).contains(EmulatorMain.class.getName()).doesNotContain(SECRET);

            OSS good = Sdk.client(endpoint, SignVersion.V4, Sdk.AK, SECRET, 0);
            try {
                good.putObject("secret-test", "k", new ByteArrayInputStream("v".getBytes(StandardCharsets.UTF_8)));
                assertThat(Sdk.readAll(good.getObject("secret-test", "k").getObjectContent()))
                        .isEqualTo("v".getBytes(StandardCharsets.UTF_8));
            } finally {
                good.shutdown();
            }
            OSS bad = Sdk.client(endpoint, SignVersion.V4, Sdk.AK, "not-the-secret", 0);
            try {
                assertThatThrownBy(() -> bad.getObject("secret-test", "k")).isInstanceOf(OSSException.class)
                        .extracting(e -> ((OSSException) e).getErrorCode()).isEqualTo("SignatureDoesNotMatch");
            } finally {
                bad.shutdown();
            }
            assertThat(Files.readString(dir.resolve("out.log"))).contains("auth on");
        } finally {
            p.destroy();
            if (!p.waitFor(Slowdown.scaledMillis(10_000), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor();
            }
        }
    }

    @org.junit.jupiter.api.Test
    void anAccessKeyWithoutAnySecretIsAUsageError() throws Exception {
        var out = new java.io.ByteArrayOutputStream();
        var ps = new java.io.PrintStream(out, true, StandardCharsets.UTF_8);
        assertThat(EmulatorMain.run(new String[] {"--access-key", "a"}, Map.of(), ps, ps)).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains(EmulatorMain.SECRET_ENV);
    }
}
