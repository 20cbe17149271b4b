package io.ossgw.emulator;

import com.aliyun.oss.ClientBuilderConfiguration;
import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSClientBuilder;
import com.aliyun.oss.common.auth.DefaultCredentialProvider;
import com.aliyun.oss.common.comm.SignVersion;
import io.ossgw.testsupport.Slowdown;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.HexFormat;

/** Test helpers: aliyun-sdk-oss clients configured as reference/oss-api.md §3 says, and small utilities. */
final class Sdk {
    static final String AK = "testak";
    static final String SK = "testsecret";

    private Sdk() {
    }

    /** A client for {@code emu} signing with {@code version} (V1 or V4, region cn-hangzhou). */
    static OSS client(OssEmulator emu, SignVersion version, String ak, String sk, int retries) {
        return client(emu.endpoint(), version, ak, sk, retries);
    }

    /** A client for the emulator at {@code endpoint} (e.g. one running as a separate process). */
    static OSS client(String endpoint, SignVersion version, String ak, String sk, int retries) {
        ClientBuilderConfiguration conf = new ClientBuilderConfiguration();
        conf.setSLDEnabled(true);
        conf.setCrcCheckEnabled(true);
        conf.setMaxErrorRetry(retries);
        conf.setConnectionRequestTimeout((int) Slowdown.scaledMillis(5000));
        conf.setSocketTimeout((int) Slowdown.scaledMillis(30000));
        conf.setSignatureVersion(version);
        OSSClientBuilder.OSSClientBuilderImpl b = OSSClientBuilder.create().endpoint(endpoint)
                .credentialsProvider(new DefaultCredentialProvider(ak, sk)).clientConfiguration(conf);
        if (version == SignVersion.V4) {
            b.region("cn-hangzhou");
        }
        return b.build();
    }

    static OSS client(OssEmulator emu, SignVersion version) {
        return client(emu, version, AK, SK, 0);
    }

    static byte[] readAll(InputStream in) throws IOException {
        try (in) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toByteArray();
        }
    }

    static String md5Hex(byte[] data) throws Exception {
        return HexFormat.of().withUpperCase().formatHex(MessageDigest.getInstance("MD5").digest(data));
    }

    static String md5HexUnchecked(byte[] data) {
        try {
            return md5Hex(data);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] md5(byte[] data) throws Exception {
        return MessageDigest.getInstance("MD5").digest(data);
    }

    static byte[] bytes(int size, int seed) {
        byte[] b = new byte[size];
        new java.util.Random(seed).nextBytes(b);
        return b;
    }
}
