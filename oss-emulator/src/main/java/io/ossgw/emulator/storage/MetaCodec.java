package io.ossgw.emulator.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads and writes object, upload and part metadata as {@link Properties} files (which escape any
 * character, so keys with newlines or non-ASCII survive).
 */
final class MetaCodec {
    private MetaCodec() {
    }

    static Properties objectProps(ObjectMeta m, String dataFile) {
        Properties p = new Properties();
        p.setProperty("key", m.key());
        p.setProperty("size", Long.toString(m.size()));
        p.setProperty("etag", m.etag());
        p.setProperty("lastModified", Long.toString(m.lastModified()));
        p.setProperty("type", m.type().name());
        p.setProperty("crc64", Long.toUnsignedString(m.crc64()));
        p.setProperty("data", dataFile);
        putMeta(p, NewMeta.of(m));
        return p;
    }

    static ObjectMeta object(Properties p, Blob blob) {
        NewMeta nm = meta(p);
        return new ObjectMeta(p.getProperty("key"), Long.parseLong(p.getProperty("size")), p.getProperty("etag"),
                Long.parseLong(p.getProperty("lastModified")), nm.contentType(), ObjectType.valueOf(p.getProperty("type")),
                Long.parseUnsignedLong(p.getProperty("crc64")), nm.storageClass(), nm.userMeta(), nm.headers(), blob);
    }

    static void putMeta(Properties p, NewMeta m) {
        p.setProperty("contentType", m.contentType());
        p.setProperty("storageClass", m.storageClass());
        for (Map.Entry<String, String> e : m.userMeta().entrySet()) {
            p.setProperty("meta." + e.getKey(), e.getValue());
        }
        for (Map.Entry<String, String> e : m.headers().entrySet()) {
            p.setProperty("header." + e.getKey(), e.getValue());
        }
    }

    static NewMeta meta(Properties p) {
        SortedMap<String, String> user = new TreeMap<>();
        SortedMap<String, String> headers = new TreeMap<>();
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith("meta.")) {
                user.put(name.substring(5), p.getProperty(name));
            } else if (name.startsWith("header.")) {
                headers.put(name.substring(7), p.getProperty(name));
            }
        }
        return new NewMeta(p.getProperty("contentType", "application/octet-stream"), user, headers,
                p.getProperty("storageClass", "Standard"));
    }

    static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        return p;
    }

    /** Writes {@code p} to a temp file, then renames it over target atomically. */
    static void storeAtomically(Properties p, Path target, Path tmp) throws IOException {
        try {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                p.store(out, null);
            }
            DirectoryBackend.moveAtomic(tmp, target);
        } catch (IOException e) {
            Files.deleteIfExists(tmp); // e.g. ENOSPC: a partial file must not keep the space
            throw e;
        }
    }
}
