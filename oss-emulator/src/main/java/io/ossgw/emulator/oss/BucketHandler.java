package io.ossgw.emulator.oss;

import io.ossgw.emulator.storage.BucketState;
import io.ossgw.emulator.storage.ObjectStore;
import io.ossgw.emulator.util.Dates;
import io.ossgw.emulator.util.Xml;
import java.io.IOException;

/** PutBucket, DeleteBucket, GetBucketAcl, GetBucketInfo, GetBucketLocation and ListBuckets (GetService). */
final class BucketHandler {
    /** The single owner the emulator reports. */
    static final String OWNER_ID = "1000000000000000";
    static final String LOCATION = "oss-cn-hangzhou";

    private final ObjectStore store;

    BucketHandler(ObjectStore store) {
        this.store = store;
    }

    /** Writes {@code <element><ID/><DisplayName/></element>}. */
    static void owner(Xml x, String element) {
        x.start(element).elem("ID", OWNER_ID).elem("DisplayName", OWNER_ID).end();
    }

    void put(OssRequest r) throws IOException {
        if (!store.createBucket(r.bucket())) {
            throw Errors.bucketAlreadyExists(r.bucket());
        }
        r.header("Location", "/" + r.bucket());
        r.empty(200);
    }

    void delete(OssRequest r, BucketState b) throws IOException {
        store.deleteBucket(b);
        r.empty(204);
    }

    void acl(OssRequest r) throws IOException {
        Xml x = new Xml("AccessControlPolicy");
        owner(x, "Owner");
        x.start("AccessControlList").elem("Grant", "private").end();
        r.xml(200, x.toBytes());
    }

    void location(OssRequest r) throws IOException {
        r.xml(200, ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<LocationConstraint>" + LOCATION
                + "</LocationConstraint>").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    void info(OssRequest r, BucketState b, String host) throws IOException {
        Xml x = new Xml("BucketInfo").start("Bucket").elem("AccessMonitor", "Disabled")
                .elem("CreationDate", Dates.iso8601(b.created())).elem("CrossRegionReplication", "Disabled")
                .elem("DataRedundancyType", "LRS").elem("ExtranetEndpoint", host).elem("IntranetEndpoint", host)
                .elem("Location", LOCATION).elem("Name", b.name()).elem("ResourceGroupId", "")
                .elem("StorageClass", "Standard").elem("TransferAcceleration", "Disabled");
        owner(x, "Owner");
        x.start("AccessControlList").elem("Grant", "private").end();
        x.start("ServerSideEncryptionRule").elem("SSEAlgorithm", "None").end();
        x.start("BucketPolicy").elem("LogBucket", "").elem("LogPrefix", "").end();
        r.xml(200, x.toBytes());
    }

    void list(OssRequest r, String host) throws IOException {
        String prefix = r.param("prefix") == null ? "" : r.param("prefix");
        Xml x = new Xml("ListAllMyBucketsResult");
        owner(x, "Owner");
        x.start("Buckets");
        for (BucketState b : store.buckets()) {
            if (b.name().startsWith(prefix)) {
                x.start("Bucket").elem("CreationDate", Dates.iso8601(b.created())).elem("ExtranetEndpoint", host)
                        .elem("IntranetEndpoint", host).elem("Location", LOCATION).elem("Name", b.name())
                        .elem("Region", "cn-hangzhou").elem("StorageClass", "Standard").end();
            }
        }
        x.end();
        r.xml(200, x.toBytes());
    }
}
