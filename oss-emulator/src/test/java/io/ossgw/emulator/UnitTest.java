package io.ossgw.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.emulator.storage.KeyOrder;
import io.ossgw.emulator.util.Crc64;
import io.ossgw.emulator.util.UriCodec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CRC-64, key order, URI coding and the CLI argument handling. */
class UnitTest {
    @Test
    void crc64MatchesTheXzCheckValueAndTheSdk() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertThat(Crc64.of(check)).isEqualTo(0x995DC9BBDF1939FAL);
        byte[] data = Sdk.bytes(100_003, 5);
        assertThat(Crc64.of(data)).isEqualTo(new com.aliyun.oss.common.utils.CRC64(data, data.length).getValue());
    }

    @Test
    void crc64ContinuesAndCombines() {
        byte[] data = Sdk.bytes(10_000, 7);
        long a = Crc64.update(0, data, 0, 3333);
        long b = Crc64.update(0, data, 3333, data.length - 3333);
        assertThat(Crc64.update(a, data, 3333, data.length - 3333)).isEqualTo(Crc64.of(data));
        assertThat(Crc64.combine(a, b, data.length - 3333)).isEqualTo(Crc64.of(data));
        assertThat(Crc64.combine(a, 0, 0)).isEqualTo(a);
    }

    @Test
    void keysOrderByCodePointLikeUtf8Bytes() {
        List<String> keys = new ArrayList<>(List.of("b", "a/", "\uFFFD", "😀", "a"));
        keys.sort(KeyOrder.INSTANCE);
        assertThat(keys).containsExactly("a", "a/", "b", "\uFFFD", "😀");
        assertThat(KeyOrder.successor("dir/")).isEqualTo("dir0");
    }

    @Test
    void uriCoding() {
        assertThat(UriCodec.decode("a%20b+c%2Fd")).isEqualTo("a b+c/d");
        assertThat(UriCodec.encode("a b+c/d~*", true)).isEqualTo("a%20b%2Bc/d~%2A");
        assertThat(UriCodec.encode("中", false)).isEqualTo("%E4%B8%AD");
    }

    @Test
    void cliRejectsBadArgumentsWithExitCode2() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertThat(EmulatorMain.run(new String[] {"--port", "x"}, Map.of(), o, e)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--port needs a number");
        assertThat(EmulatorMain.run(new String[] {"--access-key", "a"}, Map.of(), o, e)).isEqualTo(2);
        assertThat(EmulatorMain.run(new String[] {"--bucket", "Bad_Name"}, Map.of(), o, e)).isEqualTo(2);
        assertThat(EmulatorMain.run(new String[] {"--frobnicate", "1"}, Map.of(), o, e)).isEqualTo(2);
        assertThat(EmulatorMain.run(new String[] {"--access-key", "a", "--secret-key", "s", "--secret-key-file", "f"},
                Map.of(), o, e)).isEqualTo(2);
        assertThat(EmulatorMain.run(new String[] {"--access-key", "a", "--secret-key-file", "/nonexistent/sk"},
                Map.of(), o, e)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("cannot read --secret-key-file /nonexistent/sk");
        assertThat(EmulatorMain.run(new String[] {"--help"}, Map.of(), o, e)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("--port-file");
    }
}
