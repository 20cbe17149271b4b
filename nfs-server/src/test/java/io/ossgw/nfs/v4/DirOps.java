package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Wire.op;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.v4.xdr.*;
import java.nio.charset.StandardCharsets;

/**
 * Test-side builders of the directory operations (CREATE, REMOVE, RENAME, LINK, READLINK, READDIR) for {@link
 * V4Client}, and the two result checks their tests use.
 */
final class DirOps {
  private DirOps() {}

  /** No attributes (createattrs, attr_request). */
  static final fattr4 NO_ATTRS = new fattr4(bitmap4.EMPTY, new byte[0]);

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** CREATE of a type without a body (directory, FIFO, socket, or a refused type) with {@code attrs}. */
  static nfs_argop4 create(int type, String name, fattr4 attrs) {
    return op(Nfs4.OP_CREATE, new CREATE4args(new createtype4(type, null, null), utf8(name), attrs));
  }

  static nfs_argop4 mkdir(String name) {
    return create(Nfs4.NF4DIR, name, NO_ATTRS);
  }

  static nfs_argop4 symlink(String name, String target) {
    return op(Nfs4.OP_CREATE, new CREATE4args(new createtype4(Nfs4.NF4LNK, utf8(target), null), utf8(name),
        NO_ATTRS));
  }

  static nfs_argop4 remove(byte[] name) {
    return op(Nfs4.OP_REMOVE, new REMOVE4args(name));
  }

  static nfs_argop4 remove(String name) {
    return remove(utf8(name));
  }

  static nfs_argop4 rename(String from, String to) {
    return op(Nfs4.OP_RENAME, new RENAME4args(utf8(from), utf8(to)));
  }

  static nfs_argop4 link(String name) {
    return op(Nfs4.OP_LINK, new LINK4args(utf8(name)));
  }

  static nfs_argop4 readlink() {
    return op(Nfs4.OP_READLINK, null);
  }

  /** READDIR with dircount = maxcount (as Linux sends). */
  static nfs_argop4 readdir(long cookie, long verifier, int maxcount, bitmap4 attrs) {
    return op(Nfs4.OP_READDIR, new READDIR4args(cookie, verifier, maxcount, maxcount, attrs));
  }

  /** The status of the compound (its last operation's). */
  static int status(V4Client c, nfs_argop4... ops) {
    return c.call(ops).status();
  }

  /** The body of the last operation, which must succeed. */
  @SuppressWarnings("unchecked")
  static <T> T ok(V4Client c, nfs_argop4... ops) {
    COMPOUND4res r = c.call(ops);
    assertThat(r.status()).as("%s", V4Wire.show(r)).isEqualTo(Nfs4.NFS4_OK);
    return (T) r.resarray().getLast().resok();
  }

  /** The filehandle of an absolute path of the name space ("/bucket/dir"), looked up from the root. */
  static byte[] fh(V4Client c, String path) {
    java.util.List<nfs_argop4> ops = new java.util.ArrayList<>();
    ops.add(V4Client.putrootfh());
    for (String n : path.split("/")) {
      if (!n.isEmpty()) {
        ops.add(V4Client.lookup(n));
      }
    }
    ops.add(V4Client.getfh());
    GETFH4resok r = ok(c, ops.toArray(nfs_argop4[]::new));
    return r.object().data();
  }
}
