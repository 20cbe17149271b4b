package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.DirOps.readdir;
import static io.ossgw.nfs.v4.DirOps.rename;
import static io.ossgw.nfs.v4.V4Client.*;
import static io.ossgw.nfs.v4.xdr.Nfs4.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.v4.xdr.COMPOUND4res;
import io.ossgw.nfs.v4.xdr.GETFH4resok;
import io.ossgw.nfs.v4.xdr.READDIR4resok;
import io.ossgw.nfs.v4.xdr.bitmap4;
import io.ossgw.nfs.v4.xdr.entry4;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NFSv4.1 RENAME of a directory keeps the filehandles of the files below it (as v3 RENAME in NamedHandlesTest): a file
 * listed by READDIR before the rename, whose number the engine had not recorded (InodeNumbers#rename records it),
 * answers LOOKUP under the new name with the same filehandle and fileid, so the Linux client keeps one inode of it.
 */
class NamedHandles4Test {
  @TempDir
  Path state;

  @Test
  void aFileListedBelowARenamedDirectoryKeepsItsFilehandle() {
    try (V4Gateway gw = V4Gateway.simple(state)) {
      gw.put("old/f.txt", "12345");
      try (V4Client c = new V4Client(gw.port(), 1000, 1000)) {
        COMPOUND4res r = c.call(putrootfh(), lookup(V4Gateway.BUCKET), getfh(), lookup("old"),
            readdir(0, 0, 64 << 10, bitmap4.of(FATTR4_FILEHANDLE, FATTR4_FILEID)));
        assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(NFS4_OK);
        byte[] top = ((GETFH4resok) body(r, 2)).object().data();
        entry4 listed = ((READDIR4resok) body(r, 4)).entries().getFirst();
        assertThat(listed.nameString()).isEqualTo("f.txt");
        byte[] before = (byte[]) Attr4Values.decode(listed.attrs()).get(FATTR4_FILEHANDLE);
        Object fileid = Attr4Values.decode(listed.attrs()).get(FATTR4_FILEID);

        COMPOUND4res mv = c.call(putfh(top), savefh(), putfh(top), rename("old", "new"));
        assertThat(mv.status()).as(V4Wire.show(mv)).isEqualTo(NFS4_OK);

        COMPOUND4res after = c.call(putfh(top), lookup("new"), lookup("f.txt"), getfh(), getattr(FATTR4_FILEID));
        assertThat(after.status()).as(V4Wire.show(after)).isEqualTo(NFS4_OK);
        assertThat(((GETFH4resok) body(after, 3)).object().data()).as("the filehandle under the new name")
            .isEqualTo(before);
        assertThat(Attr4Values.of(after, 4).get(FATTR4_FILEID)).isEqualTo(fileid);
      }
    }
  }
}
