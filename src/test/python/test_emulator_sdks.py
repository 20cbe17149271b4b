"""Cross-checks of the OSS emulator with independent Python SDKs: oss2 (V1 and V4) and
alibabacloud-oss-v2 (V4, path style)."""
import base64
import hashlib
import uuid

import alibabacloud_oss_v2 as oss
import oss2
import pytest


def _oss2_bucket(emulator, version, secret=None):
    sk = secret or emulator.sk
    if version == "v1":
        auth = oss2.Auth(emulator.ak, sk)
    else:
        auth = oss2.AuthV4(emulator.ak, sk)
    return oss2.Bucket(auth, emulator.endpoint, emulator.bucket, region="cn-hangzhou")


def _v2_client(emulator, secret=None):
    cfg = oss.config.load_default()
    cfg.credentials_provider = oss.credentials.StaticCredentialsProvider(emulator.ak, secret or emulator.sk)
    cfg.region = "cn-hangzhou"
    cfg.endpoint = emulator.endpoint
    cfg.use_path_style = True
    return oss.Client(cfg)


@pytest.fixture(params=["v1", "v4"])
def bucket(request, emulator):
    return _oss2_bucket(emulator, request.param)


@pytest.fixture
def prefix():
    return "py-" + uuid.uuid4().hex[:8] + "/"


# ---- oss2 -----------------------------------------------------------------------------------

def test_oss2_put_head_get_range(bucket, prefix):
    data = b"hello oss2 emulator"
    r = bucket.put_object(prefix + "a.txt", data, headers={"x-oss-meta-mode": "33188", "Content-Type": "text/plain"})
    assert r.etag == hashlib.md5(data).hexdigest().upper()
    head = bucket.head_object(prefix + "a.txt")
    assert head.content_length == len(data)
    assert head.headers["x-oss-meta-mode"] == "33188"
    assert head.object_type == "Normal"
    assert bucket.get_object(prefix + "a.txt").read() == data
    part = bucket.get_object(prefix + "a.txt", byte_range=(6, 9))
    assert part.status == 206
    assert part.headers["Content-Range"] == "bytes 6-9/%d" % len(data)
    assert part.read() == data[6:10]


def test_oss2_list_v2_delimiter_and_paging(bucket, prefix):
    for k in ["d/", "d/a", "d/b", "d/sub/x", "d/sub2/y", "e"]:
        bucket.put_object(prefix + k, b"x")
    r = bucket.list_objects_v2(prefix=prefix + "d/", delimiter="/")
    assert [o.key for o in r.object_list] == [prefix + "d/", prefix + "d/a", prefix + "d/b"]
    assert r.prefix_list == [prefix + "d/sub/", prefix + "d/sub2/"]
    keys, token, pages = [], "", 0
    while True:
        r = bucket.list_objects_v2(prefix=prefix, max_keys=2, continuation_token=token)
        pages += 1
        keys += [o.key for o in r.object_list]
        if not r.is_truncated:
            break
        token = r.next_continuation_token
    assert pages == 3
    assert keys == sorted(prefix + k for k in ["d/", "d/a", "d/b", "d/sub/x", "d/sub2/y", "e"])


def test_oss2_multipart_two_parts(bucket, prefix):
    key = prefix + "mpu.bin"
    p1, p2 = b"a" * (100 * 1024 + 1), b"tail"
    upload_id = bucket.init_multipart_upload(key).upload_id
    parts = [oss2.models.PartInfo(1, bucket.upload_part(key, upload_id, 1, p1).etag),
             oss2.models.PartInfo(2, bucket.upload_part(key, upload_id, 2, p2).etag)]
    bucket.complete_multipart_upload(key, upload_id, parts)
    head = bucket.head_object(key)
    expected = hashlib.md5(hashlib.md5(p1).digest() + hashlib.md5(p2).digest()).hexdigest().upper() + "-2"
    assert head.etag == expected
    assert head.object_type == "Multipart"
    assert bucket.get_object(key).read() == p1 + p2


def test_oss2_append_copy_delete(bucket, prefix):
    key = prefix + "log"
    r1 = bucket.append_object(key, 0, b"abc")
    assert r1.next_position == 3
    r2 = bucket.append_object(key, r1.next_position, b"defg", init_crc=r1.crc)
    assert r2.next_position == 7
    with pytest.raises(oss2.exceptions.PositionNotEqualToLength):
        bucket.append_object(key, 3, b"x")
    bucket.copy_object(bucket.bucket_name, key, prefix + "copy")
    assert bucket.get_object(prefix + "copy").read() == b"abcdefg"
    bucket.delete_object(prefix + "copy")
    bucket.delete_object(prefix + "copy")  # idempotent
    assert not bucket.object_exists(prefix + "copy")
    r = bucket.batch_delete_objects([key, prefix + "never"])
    assert sorted(r.deleted_keys) == sorted([key, prefix + "never"])


def test_oss2_errors(emulator, bucket, prefix):
    with pytest.raises(oss2.exceptions.NoSuchKey):
        bucket.get_object(prefix + "missing")
    with pytest.raises(oss2.exceptions.NotFound):
        bucket.head_object(prefix + "missing")
    version = "v4" if isinstance(bucket.auth, oss2.AuthV4) else "v1"
    wrong = _oss2_bucket(emulator, version, secret="wrong-secret")
    with pytest.raises(oss2.exceptions.ServerError) as e:
        wrong.put_object(prefix + "x", b"x")
    assert e.value.code == "SignatureDoesNotMatch"
    with pytest.raises(oss2.exceptions.ServerError) as e:
        wrong.head_object(prefix + "x")
    assert e.value.code == "SignatureDoesNotMatch"


# ---- alibabacloud-oss-v2 --------------------------------------------------------------------

def test_v2_core_round_trip(emulator, prefix):
    c = _v2_client(emulator)
    b = emulator.bucket
    data = b"hello v2 sdk world"
    r = c.put_object(oss.PutObjectRequest(bucket=b, key=prefix + "a.txt", body=data, metadata={"mode": "420"},
                                          content_md5=base64.b64encode(hashlib.md5(data).digest()).decode()))
    assert r.etag.strip('"') == hashlib.md5(data).hexdigest().upper()
    assert r.hash_crc64 is not None
    h = c.head_object(oss.HeadObjectRequest(bucket=b, key=prefix + "a.txt"))
    assert h.content_length == len(data)
    assert h.metadata.get("mode") == "420"
    g = c.get_object(oss.GetObjectRequest(bucket=b, key=prefix + "a.txt", range_header="bytes=6-9"))
    assert g.status_code == 206
    assert g.content_range == "bytes 6-9/%d" % len(data)
    assert g.body.read() == data[6:10]
    for k in ["d/a", "d/b", "d/c/x", "e"]:
        c.put_object(oss.PutObjectRequest(bucket=b, key=prefix + k, body=b"x"))
    r = c.list_objects_v2(oss.ListObjectsV2Request(bucket=b, prefix=prefix + "d/", delimiter="/"))
    assert [o.key for o in r.contents] == [prefix + "d/a", prefix + "d/b"]
    assert [p.prefix for p in r.common_prefixes] == [prefix + "d/c/"]
    seen, token = [], None
    while True:
        r = c.list_objects_v2(oss.ListObjectsV2Request(bucket=b, prefix=prefix, max_keys=2, continuation_token=token))
        seen += [o.key for o in r.contents]
        if not r.is_truncated:
            break
        token = r.next_continuation_token
    assert seen == sorted(prefix + k for k in ["a.txt", "d/a", "d/b", "d/c/x", "e"])


def test_v2_multipart_append_copy_delete(emulator, prefix):
    c = _v2_client(emulator)
    b = emulator.bucket
    key = prefix + "mpu.bin"
    p1, p2 = b"z" * (100 * 1024 + 5), b"end"
    up = c.initiate_multipart_upload(oss.InitiateMultipartUploadRequest(bucket=b, key=key))
    e1 = c.upload_part(oss.UploadPartRequest(bucket=b, key=key, upload_id=up.upload_id, part_number=1, body=p1)).etag
    e2 = c.upload_part(oss.UploadPartRequest(bucket=b, key=key, upload_id=up.upload_id, part_number=2, body=p2)).etag
    c.complete_multipart_upload(oss.CompleteMultipartUploadRequest(
        bucket=b, key=key, upload_id=up.upload_id,
        complete_multipart_upload=oss.CompleteMultipartUpload(parts=[
            oss.UploadPart(part_number=1, etag=e1), oss.UploadPart(part_number=2, etag=e2)])))
    h = c.head_object(oss.HeadObjectRequest(bucket=b, key=key))
    assert h.object_type == "Multipart"
    assert h.etag.strip('"').endswith("-2")
    assert c.get_object(oss.GetObjectRequest(bucket=b, key=key)).body.read() == p1 + p2

    a1 = c.append_object(oss.AppendObjectRequest(bucket=b, key=prefix + "log", position=0, body=b"abc"))
    assert a1.next_position == 3
    a2 = c.append_object(oss.AppendObjectRequest(bucket=b, key=prefix + "log", position=3, body=b"defg"))
    assert a2.next_position == 7

    c.copy_object(oss.CopyObjectRequest(bucket=b, key=prefix + "copy", source_bucket=b, source_key=key))
    assert c.get_object(oss.GetObjectRequest(bucket=b, key=prefix + "copy")).body.read() == p1 + p2
    c.delete_object(oss.DeleteObjectRequest(bucket=b, key=prefix + "copy"))
    assert not c.is_object_exist(b, prefix + "copy")


def test_v2_errors(emulator, prefix):
    c = _v2_client(emulator)
    with pytest.raises(oss.exceptions.OperationError) as e:
        c.get_object(oss.GetObjectRequest(bucket=emulator.bucket, key=prefix + "missing"))
    assert e.value.unwrap().code == "NoSuchKey"
    wrong = _v2_client(emulator, secret="wrong-secret")
    with pytest.raises(oss.exceptions.OperationError) as e:
        wrong.put_object(oss.PutObjectRequest(bucket=emulator.bucket, key=prefix + "x", body=b"x"))
    assert e.value.unwrap().code == "SignatureDoesNotMatch"


def test_counters_over_http(emulator, prefix):
    bucket = _oss2_bucket(emulator, "v1")
    before = emulator.counters()
    bucket.put_object(prefix + "c", b"12345")
    bucket.get_object(prefix + "c").read()
    after = emulator.counters()
    assert after["PutObject"] == before.get("PutObject", 0) + 1
    assert after["GetObject"] == before.get("GetObject", 0) + 1
    assert after["BytesReceived"] >= before["BytesReceived"] + 5
