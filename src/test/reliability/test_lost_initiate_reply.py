"""A lost InitiateMultipartUpload reply leaves no upload open (issue 21 item 3; SEMANTICS.md "Incomplete multipart
uploads").

The emulator carries out InitiateMultipartUpload and then resets the connection instead of answering (the `dropReplies`
fault: a reply lost on the way, or a client timeout just before it arrived), so the upload it created has an id the
gateway never saw, and the gateway's retry creates another. Files larger than multipart_size are written through
`./ossgw mount` with such faults, the mount is unmounted cleanly, and ListMultipartUploads must then be empty (before
the fix one empty upload per lost reply stayed open until incomplete_mpu_abort removed it), with every file intact.
"""
import hashlib
import os

import oss2
from e2e_support import emulator_admin as admin

MIB = 1 << 20



def test_an_upload_whose_initiate_reply_was_lost_is_not_left_open(emulator, mounts, new_bucket):
    name, bucket = new_bucket
    mp = mounts.mount(name, extra=["multipart_size=5"])
    digests = {}
    try:
        # two lost replies for the first file (both of a retry sequence but the last), one for the second
        for rel, lost in (("a.bin", 2), ("b.bin", 1)):
            admin(emulator, "POST", f"/-/faults?dropReplies={lost}&ops=InitiateMultipartUpload")
            data = os.urandom(12 * MIB + 5)
            with open(mp / rel, "wb") as f:
                for off in range(0, len(data), MIB):
                    f.write(data[off:off + MIB])
            digests[rel] = hashlib.sha256(data).hexdigest()
    finally:
        admin(emulator, "DELETE", "/-/faults")
    mounts.unmount(mp)
    left = [(u.key, u.upload_id) for u in oss2.MultipartUploadIterator(bucket)]
    assert left == [], f"uploads left open after a clean unmount: {left}"
    for rel, digest in digests.items():
        assert hashlib.sha256(bucket.get_object(rel).read()).hexdigest() == digest, rel
