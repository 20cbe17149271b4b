package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.cluster.MemoryInodeNumberStore;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.engine.Engine;
import io.ossgw.core.observe.EngineObserver;
import java.util.List;
import java.util.function.UnaryOperator;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.xdr.*;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Round trips to a cluster's handle table per NFSv3 call (issue 23: the store's cost per operation), counted on the
 * in-memory reference form of the store ({@link MemoryInodeNumberStore#requests}, one call = one Lua script against
 * Valkey): a LOOKUP of a file asks the NFS table once for the directory's handle and once for the name, a READDIRPLUS
 * asks it once per listed entry plus once per reply, and a CREATE of a new file records nothing (its named handle);
 * a call by a handle (GETATTR, READ, WRITE) does not ask the engine's table ({@code st_ino}) at all, since its reply
 * shows the handle's fileid.
 */
class SharedTableRequestsTest {
  private static final int FILES = 300;

  @TempDir
  Path state;

  @Test
  void oneTableRequestPerListedEntryAndPerLookup() {
    MemoryInodeNumberStore store = new MemoryInodeNumberStore();
    try (NfsGateway gw = NfsGateway.simple(state)) {
      for (int i = 0; i < FILES; i++) {
        gw.sdk.putObject(NfsGateway.BUCKET, "d/f" + i, new java.io.ByteArrayInputStream(NfsClient.utf8("v" + i)));
      }
      NfsServer shared = NfsServer.builder().bind("127.0.0.1").port(0).sharedHandles(store)
          .export(Export.builder("/" + NfsGateway.BUCKET, gw.engine.fileSystem()).build()).build().start();
      try (NfsClient c = new NfsClient(shared.port(), 1000, 1000)) {
        nfs_fh3 dir = c.lookup(c.root("/" + NfsGateway.BUCKET), "d").object();

        long before = store.requests();
        Map<String, nfs_fh3> listed = new LinkedHashMap<>();
        int replies = readdirplus(c, dir, listed);
        long perListing = store.requests() - before;
        assertThat(listed).hasSize(FILES);
        assertThat(perListing).as("table requests for %d entries in %d replies", FILES, replies)
            .isLessThanOrEqualTo(FILES + 2L * replies);

        before = store.requests();
        LOOKUP3res l = c.lookup(dir, "f7");
        assertThat(l.status()).isEqualTo(nfsstat3.NFS3_OK);
        assertThat(store.requests() - before).as("table requests of one LOOKUP: its directory's handle, the name")
            .isEqualTo(2);
        assertThat(l.object()).as("LOOKUP gives the listed handle").isEqualTo(listed.get("f7"));

        before = store.requests();
        assertThat(c.getattr(listed.get("f3")).status()).isEqualTo(nfsstat3.NFS3_OK);
        assertThat(store.requests() - before).as("table requests of a GETATTR by a named handle (one script)")
            .isEqualTo(1);

        nfs_fh3 made = c.put(dir, "new.txt", NfsClient.utf8("new"));
        assertThat(c.readAll(made, 100)).isEqualTo(NfsClient.utf8("new"));
        assertThat(c.lookup(dir, "new.txt").object()).as("LOOKUP gives CREATE's handle").isEqualTo(made);
        assertThat(store.known(Export.idOf("/" + NfsGateway.BUCKET), "/d/new.txt"))
            .as("a new file's CREATE records nothing (a named handle)").isNull();
      } finally {
        shared.stop();
      }
    }
  }

  @Test
  void aCallByHandleDoesNotAskTheEnginesTable() {
    MemoryInodeNumberStore handles = new MemoryInodeNumberStore();
    MemoryInodeNumberStore numbers = new MemoryInodeNumberStore(); // the engine's st_ino table, in the store too
    try (NfsGateway gw = NfsGateway.simple(state)) {
      gw.sdk.putObject(NfsGateway.BUCKET, "d/a.txt", new java.io.ByteArrayInputStream(NfsClient.utf8("bytes of a")));
      EngineConfig config = EngineConfig.fromOptions(NfsGateway.BUCKET, "",
          MountOptions.parse(List.of("url=" + gw.emu.endpoint(), "retries=2")),
          new Credentials(NfsGateway.AK, NfsGateway.SK), 1000, 1000, state.resolve("cluster-engine"));
      try (Engine engine = Engine.start(config, EngineObserver.NONE, UnaryOperator.identity(),
          UnaryOperator.identity(), name -> numbers)) {
        NfsServer shared = NfsServer.builder().bind("127.0.0.1").port(0).sharedHandles(handles)
            .export(Export.builder("/" + NfsGateway.BUCKET, engine.fileSystem()).build()).build().start();
        try (NfsClient c = new NfsClient(shared.port(), 1000, 1000)) {
          nfs_fh3 dir = c.lookup(c.root("/" + NfsGateway.BUCKET), "d").object();
          long before = numbers.requests();
          LOOKUP3res l = c.lookup(dir, "a.txt");
          assertThat(l.status()).isEqualTo(nfsstat3.NFS3_OK);
          assertThat(numbers.requests() - before).as("a LOOKUP gives a handle: the engine's number is asked")
              .isPositive();
          long fileid = l.objAttributes().fileid();

          before = numbers.requests();
          GETATTR3res g = c.getattr(l.object());
          assertThat(g.status()).isEqualTo(nfsstat3.NFS3_OK);
          assertThat(c.getattr(l.object()).status()).isEqualTo(nfsstat3.NFS3_OK);
          assertThat(numbers.requests() - before).as("engine table requests of two GETATTRs by handle").isZero();
          before = numbers.requests();
          assertThat(c.readAll(l.object(), 4)).isEqualTo(NfsClient.utf8("bytes of a"));
          assertThat(numbers.requests() - before)
              .as("engine table requests of three READs by handle: the engine's open of the file, once").isEqualTo(1);
          assertThat(g.objAttributes().fileid()).as("the fileid is the handle's").isEqualTo(fileid);

          // the number FUSE or Samba over this engine would show is the one NFS showed, also after an NFS RENAME
          assertThat(c.rename(dir, "a.txt", dir, "b.txt").status()).isEqualTo(nfsstat3.NFS3_OK);
          assertThat(engine.fileSystem().getattr("/d/b.txt").ino()).isEqualTo(fileid);
          assertThat(c.getattr(c.lookup(dir, "b.txt").object()).objAttributes().fileid()).isEqualTo(fileid);
        } finally {
          shared.stop();
        }
      }
    }
  }

  /** Every page of READDIRPLUS (8 KiB replies) into {@code out}; returns the number of replies. */
  private static int readdirplus(NfsClient c, nfs_fh3 dir, Map<String, nfs_fh3> out) {
    long cookie = 0;
    long verf = 0;
    int replies = 0;
    while (true) {
      READDIRPLUS3res r = c.readdirplus(dir, cookie, verf, 8 * 1024);
      replies++;
      assertThat(r.status()).as(nfsstat3.name(r.status())).isEqualTo(nfsstat3.NFS3_OK);
      for (entryplus3 e : r.entries()) {
        if (!e.name().equals(".") && !e.name().equals("..")) {
          out.put(e.name(), e.nameHandle());
        }
        cookie = e.cookie();
      }
      verf = r.cookieverf();
      if (r.eof()) {
        return replies;
      }
    }
  }
}
