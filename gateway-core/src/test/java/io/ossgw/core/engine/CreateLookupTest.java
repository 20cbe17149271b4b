package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

/**
 * {@code getattrBeforeCreate} (the lookup of a name a CREATE is about to make, {@link Namespace#lookupNew}): the same
 * answers as {@code getattr} from a cold engine, in one ListObjectsV2 when nothing is there; the cases where the one
 * listing page cannot settle the question (more than {@link Namespace#NEW_NAME_KEYS} longer names sorting before the
 * directory's {@code name/}) fall back to getattr's HEAD and LIST.
 */
class CreateLookupTest extends EngineFixture {

  private void put(String key) {
    gw.sdk.putObject(BUCKET, key, new ByteArrayInputStream(utf8(key.endsWith("/") ? "" : "body of " + key)));
  }

  private Errno errnoOf(String path) {
    try {
      fs.getattrBeforeCreate(path);
      return null;
    } catch (FsException e) {
      return e.errno();
    }
  }

  @Test
  void aFreeNameCostsOneListingAndIsThenCachedAsMissing() {
    put("other");
    gw.resetCounters();
    assertThat(errnoOf("/new")).isEqualTo(Errno.ENOENT);
    assertThat(gw.count("ListObjectsV2")).isEqualTo(1);
    assertThat(gw.count("HeadObject")).isZero();
    assertThatThrownBy(() -> fs.getattr("/new")).isInstanceOf(FsException.class);
    assertThat(gw.count("ListObjectsV2") + gw.count("HeadObject")).as("the negative entry answers").isEqualTo(1);
  }

  @Test
  void anExistingFileIsFoundWithTheMetadataItsHeadGives() {
    fs.mkdir("/d", 0755, USER);
    TestGateway.writeFile(fs, "/d/f", utf8("twelve bytes"));
    fs.setattr("/d/f", io.ossgw.core.vfs.SetAttr.mode(0600), null, USER);
    gw.closeEngines();
    fs = gw.mount();
    gw.resetCounters();
    FileAttr a = fs.getattrBeforeCreate("/d/f");
    assertThat(a.isRegular()).isTrue();
    assertThat(a.size()).isEqualTo(12);
    assertThat(a.mode() & 07777).isEqualTo(0600);
    assertThat(gw.count("ListObjectsV2")).isEqualTo(1);
    assertThat(gw.count("HeadObject")).isEqualTo(1);
  }

  @Test
  void aDirectoryIsFoundAndWinsOverAFileOfItsNameAsInListings() {
    put("x");
    put("x/child.txt");
    put("m/");
    assertThat(fs.getattrBeforeCreate("/x").isDirectory()).isTrue();
    assertThat(fs.getattrBeforeCreate("/m").isDirectory()).as("a marker with nothing under it").isTrue();
  }

  @Test
  void longerNamesSortingBeforeTheDirectoryFallBackToHeadAndList() {
    for (int i = 0; i < Namespace.NEW_NAME_KEYS + 2; i++) {
      put("y!" + i); // '!' sorts before '/': these fill the page before y/
      put("z." + i);
    }
    put("y/child.txt");
    gw.resetCounters();
    assertThat(fs.getattrBeforeCreate("/y").isDirectory()).isTrue();
    assertThat(errnoOf("/z")).isEqualTo(Errno.ENOENT);
    assertThat(gw.count("ListObjectsV2")).as("one page each, then getattr's own LIST").isEqualTo(4);
  }

  @Test
  void longerNamesSortingAfterTheDirectorySettleInOnePage() {
    for (int i = 0; i < Namespace.NEW_NAME_KEYS + 2; i++) {
      put("w" + i); // '0'..'9' sort after '/': a full page that reaches past w/ says there is no w/
    }
    gw.resetCounters();
    assertThat(errnoOf("/w")).isEqualTo(Errno.ENOENT);
    assertThat(gw.count("ListObjectsV2")).isEqualTo(1);
    assertThat(gw.count("HeadObject")).isZero();
  }

  @Test
  void answersAsGetattrDoesForEveryKindOfName() {
    put("a/b/c.txt");
    put("plain");
    put("é/x");
    for (String p : new String[] {"/a", "/a/b", "/a/b/c.txt", "/plain", "/é", "/none", "/a/none", "/plain/under"}) {
      gw.closeEngines();
      fs = gw.mount();
      Errno probe = errnoOf(p);
      FileAttr viaProbe = probe == null ? fs.getattr(p) : null;
      gw.closeEngines();
      fs = gw.mount();
      Errno plain;
      FileAttr viaGetattr = null;
      try {
        viaGetattr = fs.getattr(p);
        plain = null;
      } catch (FsException e) {
        plain = e.errno();
      }
      assertThat(probe).as(p).isEqualTo(plain);
      if (viaProbe != null) {
        assertThat(viaProbe.type()).as(p).isEqualTo(viaGetattr.type());
        assertThat(viaProbe.size()).as(p).isEqualTo(viaGetattr.size());
      }
    }
  }
}
