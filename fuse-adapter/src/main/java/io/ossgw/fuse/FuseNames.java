package io.ossgw.fuse;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Name rules at the FUSE boundary. The kernel accepts FUSE names up to 1024 bytes (FUSE_NAME_MAX), so a 300-byte name
 * does reach the filesystem; Linux tools and POSIX expect ENAMETOOLONG above 255 bytes (NAME_MAX), which the adapter
 * answers itself. Names that are not valid UTF-8 are EINVAL (see {@link #utf8OrNull}). Listings skip names that could
 * not be looked up again.
 */
public final class FuseNames {
  /** Longest name component in bytes of UTF-8. */
  static final int NAME_MAX = 255;

  private FuseNames() {}

  /** True if the last component of {@code path} has more than {@link #NAME_MAX} bytes of UTF-8. */
  static boolean tooLong(String path) {
    if (path == null) {
      return false;
    }
    int start = path.lastIndexOf('/') + 1;
    if (path.length() - start <= NAME_MAX / 3) {
      return false; // a UTF-16 char is at most 3 bytes of UTF-8 (a surrogate pair is 2 chars, 4 bytes)
    }
    return utf8Length(path, start) > NAME_MAX;
  }

  /** True if a listed name can be presented: 1..255 bytes, not "." or "..", no '/' or NUL. */
  static boolean presentable(String name) {
    return !name.isEmpty()
        && !name.equals(".")
        && !name.equals("..")
        && name.indexOf('/') < 0
        && name.indexOf('\0') < 0
        && utf8Length(name, 0) <= NAME_MAX;
  }

  /**
   * The path the kernel passed, as bytes (without the NUL), decoded as UTF-8; null if the bytes are not valid UTF-8.
   * OSS keys are UTF-8: a name that is not has no key, and decoding it with replacement (as jnr-ffi and FFM's
   * {@code getString} do) would turn {@code col\xff.txt} and {@code col\xfe.txt} into the same {@code col\uFFFD.txt}. A
   * real U+FFFD (EF BF BD) is valid UTF-8 and decodes to itself.
   */
  public static String utf8OrNull(byte[] path) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(path)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private static int utf8Length(String s, int from) {
    int bytes = 0;
    for (int i = from; i < s.length(); i++) {
      char c = s.charAt(i);
      bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
    }
    return bytes;
  }
}
