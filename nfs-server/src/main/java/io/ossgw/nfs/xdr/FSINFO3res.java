package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.19 FSINFO3res. FSINFO3resok: obj_attributes, rtmax, rtpref, rtmult, wtmax, wtpref, wtmult, dtpref,
 * maxfilesize, time_delta, properties (FSF3_* bits); FSINFO3resfail: obj_attributes. Sizes are bytes.
 */
public record FSINFO3res(int status, fattr3 objAttributes, int rtmax, int rtpref, int rtmult, int wtmax, int wtpref,
    int wtmult, int dtpref, long maxfilesize, nfstime3 timeDelta, int properties) implements XdrType {

  public static FSINFO3res fail(int status, fattr3 objAttributes) {
    return new FSINFO3res(status, objAttributes, 0, 0, 0, 0, 0, 0, 0, 0, null, 0);
  }

  public static FSINFO3res decode(XdrReader r) {
    int status = r.int32();
    fattr3 a = post_op_attr.decode(r);
    if (status != nfsstat3.NFS3_OK) {
      return fail(status, a);
    }
    return new FSINFO3res(status, a, r.int32(), r.int32(), r.int32(), r.int32(), r.int32(), r.int32(), r.int32(),
        r.int64(), nfstime3.decode(r), r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    post_op_attr.encode(w, objAttributes);
    if (status == nfsstat3.NFS3_OK) {
      w.int32(rtmax).int32(rtpref).int32(rtmult).int32(wtmax).int32(wtpref).int32(wtmult).int32(dtpref)
          .int64(maxfilesize);
      timeDelta.encode(w);
      w.int32(properties);
    }
  }
}
