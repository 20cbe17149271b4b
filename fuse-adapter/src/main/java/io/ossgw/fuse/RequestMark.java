package io.ossgw.fuse;

/**
 * A mark on the kernel request that libfuse is serving on the calling thread, gone when libfuse starts the next one.
 * It tells libfuse's own calls within one request apart from calls it makes for different requests: libfuse's hide of
 * an unlinked open file (its getattr of a free {@code .fuse_hidden} name, then the rename onto it, both inside the
 * UNLINK or RENAME request; see {@link HiddenNames}) from a user's rename onto such a name (the kernel's LOOKUP of the
 * name, then a RENAME request of its own).
 *
 * <p>Implementations: {@link FuseContextMark} (both bindings, in libfuse's per-request context) and {@link #NONE} (no
 * request is ever marked: every rename is a rename).
 */
public interface RequestMark {
  /** Marks the request being served on this thread as having found {@code path} free. */
  void set(String path);

  /**
   * True if the request being served on this thread was marked for {@code path}; the mark is cleared either way.
   */
  boolean take(String path);

  /** Marks nothing: without a way to see libfuse's requests, a rename is never taken for libfuse's hide. */
  RequestMark NONE = new RequestMark() {
    @Override
    public void set(String path) {}

    @Override
    public boolean take(String path) {
      return false;
    }
  };
}
