package io.ossgw.emulator.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Stores objects under a data directory so they survive a restart.
 *
 * <pre>
 * DIR/tmp/                                   staging files (emptied at start)
 * DIR/buckets/NAME/bucket.properties         creation time
 * DIR/buckets/NAME/objects/HH/SHA.meta        metadata of the key whose SHA-256 is SHA (keys are up to
 *                                            1023 bytes, too long for file names)
 * DIR/buckets/NAME/objects/HH/SHA.VER.data    its content; VER changes with every new version
 * DIR/buckets/NAME/uploads/ID/upload.properties, part-N.properties, part-N.VER.data
 * </pre>
 *
 * Content is written to a staging file and renamed into place, then the metadata file is replaced by an
 * atomic rename; a crash leaves the old or the new object, and orphaned data files are removed at the next
 * start. Appends write in place past the committed size, which readers never look at. A write that fails (ENOSPC,
 * EIO) throws and leaves the stored version as it was, with its partial files removed.
 */
public final class DirectoryBackend implements Backend {
    private final Path root;
    private final Path tmp;
    private final Path buckets;
    private final AtomicLong versions = new AtomicLong(System.currentTimeMillis() * 1000);

    /** Opens (creating if needed) the data directory {@code root}. */
    public DirectoryBackend(Path root) throws IOException {
        this.root = root.toAbsolutePath();
        this.tmp = this.root.resolve("tmp");
        this.buckets = this.root.resolve("buckets");
        Files.createDirectories(buckets);
        if (Files.exists(tmp)) {
            deleteTree(tmp);
        }
        Files.createDirectories(tmp);
    }

    @Override
    public String describe() {
        return root.toString();
    }

    private String nextVersion() {
        return Long.toHexString(versions.incrementAndGet());
    }

    private Path newTemp() {
        return tmp.resolve(nextVersion() + ".tmp");
    }

    static void moveAtomic(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static String sha256(String key) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private Path objectDir(String bucket, String key) {
        return buckets.resolve(bucket).resolve("objects").resolve(sha256(key).substring(0, 2));
    }

    private Path uploadDir(Upload u) {
        return buckets.resolve(u.bucket()).resolve("uploads").resolve(u.uploadId());
    }

    @Override
    public BlobWriter create(long sizeHint) throws IOException {
        Path file = newTemp();
        return new FileWriter(FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), file, 0, true);
    }

    @Override
    public BlobWriter append(Blob base) throws IOException {
        FileBlob fb = (FileBlob) base;
        FileChannel ch = FileChannel.open(fb.path(), StandardOpenOption.WRITE);
        ch.truncate(fb.size()); // drop bytes of an append that never committed
        ch.position(fb.size());
        return new FileWriter(ch, fb.path(), fb.size(), fb.staged());
    }

    @Override
    public Blob share(Blob src) throws IOException {
        FileBlob fb = (FileBlob) src;
        Path file = newTemp();
        try {
            Files.createLink(file, fb.path());
            return new FileBlob(file, fb.size(), true);
        } catch (IOException | UnsupportedOperationException e) {
            return concat(List.of(src));
        }
    }

    @Override
    public Blob concat(List<Blob> parts) throws IOException {
        Path file = newTemp();
        long total = 0;
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (Blob b : parts) {
                FileBlob fb = (FileBlob) b;
                try (FileChannel in = FileChannel.open(fb.path(), StandardOpenOption.READ)) {
                    long pos = 0;
                    while (pos < fb.size()) {
                        long n = in.transferTo(pos, fb.size() - pos, out);
                        if (n <= 0) {
                            throw new IOException("short part file " + fb.path());
                        }
                        pos += n;
                    }
                }
                total += fb.size();
            }
        } catch (IOException e) {
            Files.deleteIfExists(file);
            throw e;
        }
        return new FileBlob(file, total, true);
    }

    @Override
    public List<BucketRecord> loadBuckets() throws IOException {
        List<BucketRecord> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(buckets)) {
            for (Path dir : ds) {
                Path props = dir.resolve("bucket.properties");
                if (Files.exists(props)) {
                    Properties p = MetaCodec.load(props);
                    out.add(new BucketRecord(dir.getFileName().toString(), Long.parseLong(p.getProperty("created"))));
                }
            }
        }
        return out;
    }

    @Override
    public void saveBucket(BucketRecord bucket) throws IOException {
        Path dir = buckets.resolve(bucket.name());
        Files.createDirectories(dir.resolve("objects"));
        Files.createDirectories(dir.resolve("uploads"));
        Properties p = new Properties();
        p.setProperty("created", Long.toString(bucket.created()));
        MetaCodec.storeAtomically(p, dir.resolve("bucket.properties"), newTemp());
    }

    @Override
    public void deleteBucket(String name) throws IOException {
        deleteTree(buckets.resolve(name));
    }

    @Override
    public void loadObjects(String bucket, Consumer<ObjectMeta> sink) throws IOException {
        Path objects = buckets.resolve(bucket).resolve("objects");
        if (!Files.isDirectory(objects)) {
            return;
        }
        try (Stream<Path> dirs = Files.list(objects)) {
            for (Path dir : (Iterable<Path>) dirs::iterator) {
                Set<String> referenced = new HashSet<>();
                List<Path> dataFiles = new ArrayList<>();
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path f : (Iterable<Path>) files::iterator) {
                        String name = f.getFileName().toString();
                        if (name.endsWith(".meta")) {
                            Properties p = MetaCodec.load(f);
                            String data = p.getProperty("data");
                            referenced.add(data);
                            ObjectMeta m = MetaCodec.object(p, null);
                            sink.accept(m.withBlob(new FileBlob(dir.resolve(data), m.size(), false)));
                        } else if (name.endsWith(".data")) {
                            dataFiles.add(f);
                        }
                    }
                }
                for (Path f : dataFiles) {
                    if (!referenced.contains(f.getFileName().toString())) {
                        Files.deleteIfExists(f); // left by a crash between the data and metadata renames
                    }
                }
            }
        }
    }

    @Override
    public ObjectMeta saveObject(String bucket, ObjectMeta meta, ObjectMeta previous) throws IOException {
        Path dir = objectDir(bucket, meta.key());
        Files.createDirectories(dir);
        String hash = sha256(meta.key());
        FileBlob blob = (FileBlob) meta.blob();
        Path data = blob.path();
        if (blob.staged()) {
            data = dir.resolve(hash + "." + nextVersion() + ".data");
            moveAtomic(blob.path(), data);
        }
        ObjectMeta stored = meta.withBlob(new FileBlob(data, meta.size(), false));
        try {
            MetaCodec.storeAtomically(MetaCodec.objectProps(stored, data.getFileName().toString()),
                    dir.resolve(hash + ".meta"), newTemp());
        } catch (IOException e) {
            if (blob.staged()) {
                Files.deleteIfExists(data); // the previous version's metadata still names its own data file
            }
            throw e;
        }
        if (previous != null && previous.blob() instanceof FileBlob old && !old.path().equals(data)) {
            Files.deleteIfExists(old.path());
        }
        return stored;
    }

    @Override
    public void deleteObject(String bucket, ObjectMeta meta) throws IOException {
        Path dir = objectDir(bucket, meta.key());
        Files.deleteIfExists(dir.resolve(sha256(meta.key()) + ".meta"));
        if (meta.blob() instanceof FileBlob fb) {
            Files.deleteIfExists(fb.path());
        }
    }

    @Override
    public List<Upload> loadUploads(String bucket) throws IOException {
        List<Upload> out = new ArrayList<>();
        Path uploads = buckets.resolve(bucket).resolve("uploads");
        if (!Files.isDirectory(uploads)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(uploads)) {
            for (Path dir : ds) {
                Path props = dir.resolve("upload.properties");
                if (!Files.exists(props)) {
                    deleteTree(dir);
                    continue;
                }
                Properties p = MetaCodec.load(props);
                Upload u = new Upload(bucket, p.getProperty("key"), dir.getFileName().toString(),
                        Long.parseLong(p.getProperty("initiated")), MetaCodec.meta(p));
                loadParts(u, dir);
                out.add(u);
            }
        }
        return out;
    }

    private void loadParts(Upload u, Path dir) throws IOException {
        Set<String> referenced = new HashSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (name.startsWith("part-") && name.endsWith(".properties")) {
                    Properties p = MetaCodec.load(f);
                    referenced.add(p.getProperty("data"));
                    long size = Long.parseLong(p.getProperty("size"));
                    Part part = new Part(Integer.parseInt(p.getProperty("number")), p.getProperty("etag"), size,
                            Long.parseUnsignedLong(p.getProperty("crc64")), Long.parseLong(p.getProperty("lastModified")),
                            new FileBlob(dir.resolve(p.getProperty("data")), size, false));
                    u.parts().put(part.number(), part);
                }
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (name.endsWith(".data") && !referenced.contains(name)) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    @Override
    public void saveUpload(Upload upload) throws IOException {
        Path dir = uploadDir(upload);
        Files.createDirectories(dir);
        Properties p = new Properties();
        p.setProperty("key", upload.key());
        p.setProperty("initiated", Long.toString(upload.initiated()));
        MetaCodec.putMeta(p, upload.meta());
        MetaCodec.storeAtomically(p, dir.resolve("upload.properties"), newTemp());
    }

    @Override
    public Part savePart(Upload upload, Part part, Part previous) throws IOException {
        Path dir = uploadDir(upload);
        FileBlob blob = (FileBlob) part.blob();
        Path data = dir.resolve("part-" + part.number() + "." + nextVersion() + ".data");
        try {
            moveAtomic(blob.path(), data);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(dir.toString(), null, "upload was aborted or completed concurrently");
        }
        Properties p = new Properties();
        p.setProperty("number", Integer.toString(part.number()));
        p.setProperty("etag", part.etag());
        p.setProperty("size", Long.toString(part.size()));
        p.setProperty("crc64", Long.toUnsignedString(part.crc64()));
        p.setProperty("lastModified", Long.toString(part.lastModified()));
        p.setProperty("data", data.getFileName().toString());
        try {
            MetaCodec.storeAtomically(p, dir.resolve("part-" + part.number() + ".properties"), newTemp());
        } catch (IOException e) {
            Files.deleteIfExists(data); // the part keeps its previous version, if any
            throw e;
        }
        if (previous != null && previous.blob() instanceof FileBlob old) {
            Files.deleteIfExists(old.path());
        }
        return part.withBlob(new FileBlob(data, part.size(), false));
    }

    @Override
    public void deleteUpload(Upload upload) throws IOException {
        deleteTree(uploadDir(upload));
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Override
    public void close() {
        // files are closed per operation
    }

    /** Writes to a staging file, or in place past the committed end of an appendable object's file. */
    private static final class FileWriter implements BlobWriter {
        private final FileChannel ch;
        private final Path path;
        private final long base;
        private final boolean staged;
        private long written;

        FileWriter(FileChannel ch, Path path, long base, boolean staged) {
            this.ch = ch;
            this.path = path;
            this.base = base;
            this.staged = staged;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            ByteBuffer bb = ByteBuffer.wrap(b, off, len);
            while (bb.hasRemaining()) {
                ch.write(bb);
            }
            written += len;
        }

        @Override
        public Blob finish() throws IOException {
            ch.close();
            return new FileBlob(path, base + written, staged);
        }

        @Override
        public void abort() {
            try {
                if (staged) {
                    ch.close();
                    Files.deleteIfExists(path);
                } else {
                    ch.truncate(base);
                    ch.close();
                }
            } catch (IOException ignored) {
                // best effort: a stale tail is truncated by the next append
            }
        }
    }
}
