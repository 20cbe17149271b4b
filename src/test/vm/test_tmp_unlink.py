import pytest
from e2e_support import log

JOB = r'''
. /job/lib.sh
mount_v3 /mnt/n
python3 - <<PY
import os
p="/mnt/n/open"
fd=os.open(p, os.O_CREAT|os.O_RDWR, 0o644)
os.write(fd,b"0123456789")
os.unlink(p)
st=os.fstat(fd)
print("FSTAT", st.st_nlink, st.st_size)
print("PREAD", os.pread(fd,100,0))
os.close(fd)
PY
ls -la /mnt/n
umount /mnt/n
echo DONE
'''

@pytest.mark.parametrize("path", ["lean", "sdk"])
def test_unlink(gateway, guest, path):
    gw = gateway({"ossgw.options.data_path": path, "ossgw.nfs.versions": "3"})
    rc, out = guest(JOB, env={"NFS_PORT": gw.nfs_port, "BUCKET": gw.bucket})
    log(out)
    print(out)
    assert "PREAD b'0123456789'" in out, out
