package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.7 WRITE3res. WRITE3resok: file_wcc, count, committed, verf; WRITE3resfail: file_wcc.
 *
 * @param count bytes written (NFS3_OK only)
 * @param committed stable_how the data reached (NFS3_OK only)
 * @param verf writeverf3, 8 bytes: changes when the server restarts (NFS3_OK only)
 */
public record WRITE3res(int status, wcc_data fileWcc, int count, int committed, long verf) implements XdrType {
  public static WRITE3res fail(int status, wcc_data fileWcc) {
    return new WRITE3res(status, fileWcc, 0, 0, 0);
  }

  public static WRITE3res decode(XdrReader r) {
    int status = r.int32();
    wcc_data wcc = wcc_data.decode(r);
    if (status != nfsstat3.NFS3_OK) {
      return fail(status, wcc);
    }
    return new WRITE3res(status, wcc, r.int32(), r.enumValue(Nfs3.UNSTABLE, Nfs3.FILE_SYNC), r.int64());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    fileWcc.encode(w);
    if (status == nfsstat3.NFS3_OK) {
      w.int32(count).int32(committed).int64(verf);
    }
  }
}
