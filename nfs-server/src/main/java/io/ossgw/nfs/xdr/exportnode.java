package io.ossgw.nfs.xdr;

import java.util.ArrayList;
import java.util.List;

/**
 * RFC 1813 §5.2.5 exportnode: an exported path and the groups (client names, networks) that may mount it; an empty
 * list means everyone. {@link exports} is the EXPORT result, the linked list of them.
 *
 * @param dir ex_dir (dirpath)
 * @param groups ex_groups (a linked list of name&lt;MNTNAMLEN&gt;)
 */
public record exportnode(String dir, List<String> groups) implements XdrType {
  public exportnode {
    groups = List.copyOf(groups);
  }

  public static exportnode decode(XdrReader r) {
    String dir = dirpath.decode(r);
    List<String> groups = new ArrayList<>();
    while (r.bool()) {
      groups.add(r.string(Nfs3.MNTNAMLEN));
    }
    return new exportnode(dir, groups);
  }

  @Override
  public void encode(XdrWriter w) {
    dirpath.encode(w, dir);
    for (String g : groups) {
      w.bool(true).string(g);
    }
    w.bool(false);
  }

  /** exports: {@code exportnode *}. */
  public record exports(List<exportnode> nodes) implements XdrType {
    public exports {
      nodes = List.copyOf(nodes);
    }

    public static exports decode(XdrReader r) {
      List<exportnode> out = new ArrayList<>();
      while (r.bool()) {
        out.add(exportnode.decode(r));
      }
      return new exports(out);
    }

    @Override
    public void encode(XdrWriter w) {
      for (exportnode n : nodes) {
        w.bool(true);
        n.encode(w);
      }
      w.bool(false);
    }
  }
}
