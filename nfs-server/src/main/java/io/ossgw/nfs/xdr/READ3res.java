package io.ossgw.nfs.xdr;

import java.nio.ByteBuffer;

/**
 * RFC 1813 §3.3.6 READ3res. READ3resok: file_attributes, count, eof, data; READ3resfail: file_attributes.
 *
 * @param fileAttributes post_op_attr, nullable
 * @param count bytes returned (NFS3_OK only)
 * @param eof the read reached the end of the file
 * @param data the bytes (NFS3_OK only); encoded without a copy, so it must not change once handed over
 */
public record READ3res(int status, fattr3 fileAttributes, int count, boolean eof, ByteBuffer data) implements XdrType {
  /** Largest data a client-side decode accepts (the server never sends more than its rtmax). */
  public static final int MAX_DATA = 64 << 20;

  public static READ3res fail(int status, fattr3 fileAttributes) {
    return new READ3res(status, fileAttributes, 0, false, null);
  }

  public static READ3res decode(XdrReader r) {
    int status = r.int32();
    fattr3 a = post_op_attr.decode(r);
    if (status != nfsstat3.NFS3_OK) {
      return fail(status, a);
    }
    int count = r.int32();
    boolean eof = r.bool();
    ByteBuffer data = r.bytes(MAX_DATA);
    if (data.remaining() != count) {
      throw new XdrException("READ3resok count " + count + " but " + data.remaining() + " bytes");
    }
    return new READ3res(status, a, count, eof, data);
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    post_op_attr.encode(w, fileAttributes);
    if (status == nfsstat3.NFS3_OK) {
      w.int32(count).bool(eof).bytes(data);
    }
  }
}
