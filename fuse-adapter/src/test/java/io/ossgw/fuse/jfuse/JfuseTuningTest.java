package io.ossgw.fuse.jfuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.cryptomator.jfuse.api.FuseConnInfo.FUSE_CAP_ASYNC_READ;
import static org.cryptomator.jfuse.api.FuseConnInfo.FUSE_CAP_READDIRPLUS;
import static org.cryptomator.jfuse.api.FuseConnInfo.FUSE_CAP_READDIRPLUS_AUTO;
import static org.cryptomator.jfuse.api.FuseConnInfo.FUSE_CAP_SPLICE_MOVE;
import static org.cryptomator.jfuse.api.FuseConnInfo.FUSE_CAP_SPLICE_READ;
import static org.cryptomator.jfuse.api.FuseConnInfo.FUSE_CAP_SPLICE_WRITE;

import io.ossgw.fuse.jfuse.JfuseTuning.Readdirplus;
import org.junit.jupiter.api.Test;

/** The INIT {@code want} flags: only libfuse's defaults changed as documented, never beyond what the kernel offers. */
class JfuseTuningTest {
  private static final int SPLICE = FUSE_CAP_SPLICE_READ | FUSE_CAP_SPLICE_WRITE | FUSE_CAP_SPLICE_MOVE;
  private static final int LIBFUSE_DEFAULT = FUSE_CAP_ASYNC_READ | FUSE_CAP_SPLICE_READ | FUSE_CAP_READDIRPLUS
      | FUSE_CAP_READDIRPLUS_AUTO;
  private static final int KERNEL = LIBFUSE_DEFAULT | SPLICE;

  @Test
  void defaultsAskForReaddirplusOnEveryPageAndNoSplice() {
    int w = JfuseTuning.want(LIBFUSE_DEFAULT, KERNEL, new JfuseTuning(Readdirplus.ALWAYS, false, 0));
    assertThat(w).isEqualTo(FUSE_CAP_ASYNC_READ | FUSE_CAP_READDIRPLUS);
  }

  @Test
  void autoAndSpliceKeepLibfusesDefaults() {
    assertThat(JfuseTuning.want(LIBFUSE_DEFAULT, KERNEL, new JfuseTuning(Readdirplus.AUTO, true, 0)))
        .isEqualTo(LIBFUSE_DEFAULT);
  }

  @Test
  void offClearsReaddirplus() {
    assertThat(JfuseTuning.want(LIBFUSE_DEFAULT, KERNEL, new JfuseTuning(Readdirplus.OFF, true, 0)))
        .isEqualTo(FUSE_CAP_ASYNC_READ | FUSE_CAP_SPLICE_READ);
  }

  @Test
  void neverWantsWhatTheKernelLacks() {
    assertThat(JfuseTuning.want(FUSE_CAP_ASYNC_READ, FUSE_CAP_ASYNC_READ, new JfuseTuning(Readdirplus.ALWAYS, false, 0)))
        .isEqualTo(FUSE_CAP_ASYNC_READ);
  }
}
