package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.xdr.Nfs4.*;

import io.ossgw.nfs.v4.xdr.bitmap4;
import io.ossgw.nfs.v4.xdr.fattr4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.Xdrs;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Test side of fattr4: decodes attr_vals as a client would, by each attribute's RFC 8881 type: Integer (uint32 and
 * enums), Long (uint64), Boolean, String (owner strings), byte[] (filehandle), long[] (fsid, rawdev), Instant
 * (nfstime4), bitmap4. Fails on an attribute it does not know or on leftover bytes.
 */
final class Attr4Values {
  private Attr4Values() {}

  static Map<Integer, Object> decode(fattr4 f) {
    bitmap4 m = f.attrmask();
    return Xdrs.fromBytes(f.attrVals(), r -> {
      Map<Integer, Object> out = new LinkedHashMap<>();
      for (int a = m.next(0); a >= 0; a = m.next(a + 1)) {
        out.put(a, value(a, r));
      }
      return out;
    });
  }

  private static Object value(int a, XdrReader r) {
    return switch (a) {
      case FATTR4_SUPPORTED_ATTRS, FATTR4_SUPPATTR_EXCLCREAT -> bitmap4.decode(r);
      case FATTR4_TYPE, FATTR4_FH_EXPIRE_TYPE, FATTR4_LEASE_TIME, FATTR4_RDATTR_ERROR, FATTR4_MAXLINK,
          FATTR4_MAXNAME, FATTR4_MODE, FATTR4_NUMLINKS -> r.int32();
      case FATTR4_CHANGE, FATTR4_SIZE, FATTR4_FILEID, FATTR4_FILES_AVAIL, FATTR4_FILES_FREE, FATTR4_FILES_TOTAL,
          FATTR4_MAXFILESIZE, FATTR4_MAXREAD, FATTR4_MAXWRITE, FATTR4_SPACE_AVAIL, FATTR4_SPACE_FREE,
          FATTR4_SPACE_TOTAL, FATTR4_SPACE_USED, FATTR4_MOUNTED_ON_FILEID -> r.int64();
      case FATTR4_LINK_SUPPORT, FATTR4_SYMLINK_SUPPORT, FATTR4_NAMED_ATTR, FATTR4_UNIQUE_HANDLES,
          FATTR4_CANSETTIME, FATTR4_CASE_INSENSITIVE, FATTR4_CASE_PRESERVING, FATTR4_CHOWN_RESTRICTED,
          FATTR4_HOMOGENEOUS, FATTR4_NO_TRUNC -> r.bool();
      case FATTR4_FSID -> new long[] {r.int64(), r.int64()};
      case FATTR4_RAWDEV -> new long[] {r.uint32(), r.uint32()};
      case FATTR4_FILEHANDLE -> r.opaque(NFS4_FHSIZE);
      case FATTR4_OWNER, FATTR4_OWNER_GROUP -> r.string(NFS4_OPAQUE_LIMIT);
      case FATTR4_TIME_ACCESS, FATTR4_TIME_DELTA, FATTR4_TIME_METADATA, FATTR4_TIME_MODIFY -> {
        long s = r.int64();
        yield Instant.ofEpochSecond(s, r.uint32());
      }
      default -> throw new IllegalArgumentException("attribute " + a + " not decoded by the test");
    };
  }

  /** The attribute values of result {@code i} (a GETATTR) of a compound. */
  static Map<Integer, Object> of(io.ossgw.nfs.v4.xdr.COMPOUND4res r, int i) {
    return decode(((io.ossgw.nfs.v4.xdr.GETATTR4resok) r.resarray().get(i).resok()).objAttributes());
  }
}
