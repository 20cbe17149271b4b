package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.21 COMMIT3res. COMMIT3resok: file_wcc, verf; COMMIT3resfail: file_wcc.
 *
 * @param verf writeverf3 as a long (NFS3_OK only): equal to the WRITE replies' verifier unless the server restarted
 */
public record COMMIT3res(int status, wcc_data fileWcc, long verf) implements XdrType {
  public static COMMIT3res fail(int status, wcc_data fileWcc) {
    return new COMMIT3res(status, fileWcc, 0);
  }

  public static COMMIT3res decode(XdrReader r) {
    int status = r.int32();
    wcc_data wcc = wcc_data.decode(r);
    return new COMMIT3res(status, wcc, status == nfsstat3.NFS3_OK ? r.int64() : 0);
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    fileWcc.encode(w);
    if (status == nfsstat3.NFS3_OK) {
      w.int64(verf);
    }
  }
}
