package io.ossgw.emulator.oss;

import io.ossgw.emulator.FaultInjector;
import io.ossgw.emulator.HeapPressure;
import io.ossgw.emulator.RequestCounters;
import io.ossgw.emulator.auth.Authenticator;
import io.ossgw.emulator.http.HttpExchange;
import io.ossgw.emulator.http.HttpHandler;
import io.ossgw.emulator.http.HttpRequest;
import io.ossgw.emulator.storage.BucketState;
import io.ossgw.emulator.storage.ObjectStore;
import io.ossgw.emulator.util.UriCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * The OSS front door: addressing (path style and {@code bucket.<virtualHostBase>}), operation naming and
 * counting, fault injection, heap pressure (503 SlowDown for requests that grow the store, {@link HeapPressure}),
 * name validation, signature checks, then dispatch to the handlers. Every reply carries {@code x-oss-request-id};
 * every failure is an OSS error document (or {@code x-oss-err} on HEAD). A failure of the store itself (an
 * {@link IOException} of the data directory, such as ENOSPC) is 500 InternalError; only a failure of the
 * connection (the client went away) ends the exchange without a reply.
 */
public final class OssHandler implements HttpHandler {
    private static final Logger LOG = Logger.getLogger(OssHandler.class.getName());
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9-]{1,61}[a-z0-9]");
    private static final int MAX_KEY_BYTES = 1023;
    /** Requests that make the store hold more: refused with SlowDown while the heap is under pressure. */
    private static final Set<String> GROWS = Set.of("PutObject", "AppendObject", "CopyObject",
            "InitiateMultipartUpload", "UploadPart", "UploadPartCopy", "PutBucket");

    private final ObjectStore store;
    private final Authenticator auth;
    private final RequestCounters counters;
    private final FaultInjector faults;
    private final HeapPressure heap;
    private final String virtualHostBase;
    private final ObjectHandler objects;
    private final ListHandler lists;
    private final MultipartHandler multipart;
    private final BucketHandler buckets;
    private final AdminHandler admin;

    /**
     * @param heap            when it is {@link HeapPressure#high() high}, requests that grow the store get 503 SlowDown
     * @param virtualHostBase base host for virtual-hosted addressing ({@code bucket.<base>}), or null
     */
    public OssHandler(ObjectStore store, Authenticator auth, RequestCounters counters, FaultInjector faults,
                      HeapPressure heap, String virtualHostBase) {
        this.store = store;
        this.auth = auth;
        this.counters = counters;
        this.faults = faults;
        this.heap = heap;
        this.virtualHostBase = virtualHostBase == null ? null : virtualHostBase.toLowerCase(Locale.ROOT);
        this.objects = new ObjectHandler(store);
        this.lists = new ListHandler(store);
        this.multipart = new MultipartHandler(store, objects);
        this.buckets = new BucketHandler(store);
        this.admin = new AdminHandler(counters, faults);
    }

    private static String newRequestId() {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        return String.format("%08X%016X", System.currentTimeMillis() / 1000, rnd.nextLong());
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        HttpRequest req = ex.request();
        String requestId = newRequestId();
        String hostHeader = req.headers().first("Host") == null ? "127.0.0.1" : req.headers().first("Host");
        String host = hostHeader.toLowerCase(Locale.ROOT).replaceFirst(":\\d+$", "");
        String rawPath = req.rawPath();
        String vhostBucket = null;
        if (virtualHostBase != null && host.endsWith("." + virtualHostBase)) {
            vhostBucket = host.substring(0, host.length() - virtualHostBase.length() - 1);
        }
        if (vhostBucket == null && (rawPath.equals("/-") || rawPath.startsWith("/-/"))) {
            OssRequest r = new OssRequest(ex, null, null, OssRequest.parseQuery(req.rawQuery()), requestId, host);
            admin.handle(r, rawPath);
            return;
        }
        OssRequest r;
        try {
            r = parse(ex, rawPath, vhostBucket, requestId, host);
        } catch (IllegalArgumentException e) {
            OssRequest bare = new OssRequest(ex, null, null, List.of(), requestId, host);
            bare.error(new OssException(400, "InvalidURI", "Couldn't parse the specified URI.", null));
            return;
        }
        String op = Router.operation(r);
        r.operation(op);
        counters.increment(op);
        boolean dropReply = false;
        try {
            FaultInjector.Decision d = faults.apply(op);
            if (d instanceof FaultInjector.Reset) {
                ex.abortConnection();
                return;
            }
            if (d instanceof FaultInjector.Fail f) {
                throw new OssException(f.status(), f.code(), faultMessage(f.code()), null);
            }
            if (d instanceof FaultInjector.DropReply) {
                dropReply = true;
                ex.discardReply();
            }
            if (GROWS.contains(op) && heap.high()) {
                throw Errors.slowDown("Please reduce your request rate. (The emulator's Java heap is nearly full: "
                        + "delete objects, or run it with a larger -Xmx.)");
            }
            validate(r);
            auth.verify(r.signingInput());
            dispatch(r, op, hostHeader);
        } catch (OssException e) {
            reply(r, e);
        } catch (IOException e) {
            if (ex.clientFailed() || ex.responded()) {
                throw e; // the connection failed, or the reply is already on its way: nothing more can be sent
            }
            // the store failed (e.g. ENOSPC in the data directory): the request changed nothing (see Backend)
            LOG.log(Level.WARNING, "storage error in " + op + " " + r.bucket() + "/" + r.key() + ": " + e);
            reply(r, Errors.internal("We encountered an internal error. Please try again. (The emulator's store "
                    + "failed: " + e.getMessage() + ")"));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "internal error in " + op, e);
            reply(r, Errors.internal("We encountered an internal error. Please try again."));
        } finally {
            counters.addBytes(ex.bytesReceived(), ex.bytesSent());
            if (dropReply) {
                ex.abortConnection();
            }
        }
    }

    private static void reply(OssRequest r, OssException e) throws IOException {
        if (r.exchange().responded()) {
            throw new IOException("error after the response started: " + e.code());
        }
        r.error(e);
    }

    private static String faultMessage(String code) {
        return switch (code) {
            case "SlowDown" -> "Please reduce your request rate.";
            case "InternalError" -> "We encountered an internal error. Please try again.";
            default -> "Injected fault.";
        };
    }

    private OssRequest parse(HttpExchange ex, String rawPath, String vhostBucket, String requestId, String host) {
        List<Map.Entry<String, String>> params = OssRequest.parseQuery(ex.request().rawQuery());
        String bucket;
        String rawKey;
        if (vhostBucket != null) {
            bucket = vhostBucket;
            rawKey = rawPath.length() > 1 ? rawPath.substring(1) : null;
        } else if (rawPath.equals("/") || rawPath.isEmpty()) {
            bucket = null;
            rawKey = null;
        } else {
            String p = rawPath.substring(1);
            int slash = p.indexOf('/');
            bucket = UriCodec.decode(slash < 0 ? p : p.substring(0, slash));
            rawKey = slash < 0 || slash == p.length() - 1 ? null : p.substring(slash + 1);
        }
        String key = rawKey == null ? null : UriCodec.decode(rawKey);
        return new OssRequest(ex, bucket, key, params, requestId, host);
    }

    private static void validate(OssRequest r) {
        if (r.bucket() != null && !BUCKET.matcher(r.bucket()).matches()) {
            throw Errors.invalidBucketName(r.bucket());
        }
        String key = r.key();
        if (key != null) {
            if (key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
                throw Errors.invalidObjectName("The Length of Object name must be less than 1024", "0016-00000003");
            }
            if (key.startsWith("/") || key.startsWith("\\")) {
                throw Errors.invalidObjectName("The specified object is not valid.", "0016-00000005");
            }
        }
    }

    private void dispatch(OssRequest r, String op, String hostHeader) throws IOException {
        if (op.equals("ListBuckets")) {
            buckets.list(r, hostHeader);
            return;
        }
        if (op.equals("PutBucket")) {
            buckets.put(r);
            return;
        }
        if (op.equals("Unsupported")) {
            throw Errors.notImplemented(r.method() + " with these parameters");
        }
        BucketState b = store.bucket(r.bucket());
        if (b == null) {
            throw Errors.noSuchBucket(r.bucket());
        }
        switch (op) {
            case "PutBucketAcl", "HeadBucket" -> r.empty(200);
            case "GetBucketAcl" -> buckets.acl(r);
            case "GetBucketInfo" -> buckets.info(r, b, hostHeader);
            case "GetBucketLocation" -> buckets.location(r);
            case "DeleteBucket" -> buckets.delete(r, b);
            case "ListObjects" -> lists.listV1(r, b);
            case "ListObjectsV2" -> lists.listV2(r, b);
            case "ListMultipartUploads" -> lists.listUploads(r, b);
            case "DeleteMultipleObjects" -> lists.deleteMultiple(r, b);
            case "PutObject" -> objects.put(r, b);
            case "CopyObject" -> objects.copy(r, b);
            case "GetObject" -> objects.get(r, b, false);
            case "HeadObject" -> objects.get(r, b, true);
            case "GetObjectMeta" -> objects.objectMeta(r, b);
            case "DeleteObject" -> objects.delete(r, b);
            case "AppendObject" -> objects.append(r, b);
            case "GetObjectAcl" -> objects.getAcl(r, b);
            case "PutObjectAcl" -> objects.putAcl(r, b);
            case "InitiateMultipartUpload" -> multipart.initiate(r, b);
            case "UploadPart" -> multipart.uploadPart(r, b);
            case "UploadPartCopy" -> multipart.uploadPartCopy(r, b);
            case "CompleteMultipartUpload" -> multipart.complete(r, b, hostHeader);
            case "AbortMultipartUpload" -> multipart.abort(r, b);
            case "ListParts" -> multipart.listParts(r, b);
            default -> throw Errors.notImplemented(op);
        }
    }
}
