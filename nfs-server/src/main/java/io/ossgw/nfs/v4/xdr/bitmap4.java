package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;
import java.util.Arrays;

/**
 * RFC 8881 §3.3.7 bitmap4 (uint32_t&lt;&gt;): attribute n is bit {@code n % 32} of word {@code n / 32}. Decoding is
 * bounded by {@link Nfs4#ARRAY_LIMIT} words (512 attributes; 4.1 defines 77). Immutable: the words are copied in and
 * never handed out.
 */
public final class bitmap4 implements XdrType {
  /** No attribute. */
  public static final bitmap4 EMPTY = new bitmap4(new int[0]);

  private final int[] words;

  private bitmap4(int[] words) {
    int n = words.length;
    while (n > 0 && words[n - 1] == 0) {
      n--; // trailing zero words say nothing; dropping them makes equal sets equal
    }
    this.words = Arrays.copyOf(words, n);
  }

  /** The set of these attribute numbers (each 0..511). */
  public static bitmap4 of(int... attrs) {
    int[] w = new int[0];
    for (int a : attrs) {
      if (a < 0 || a >= 32 * Nfs4.ARRAY_LIMIT) {
        throw new IllegalArgumentException("attribute " + a);
      }
      if (a / 32 >= w.length) {
        w = Arrays.copyOf(w, a / 32 + 1);
      }
      w[a / 32] |= 1 << (a % 32);
    }
    return new bitmap4(w);
  }

  /** A bitmap from raw words (word 0 holds attributes 0..31). */
  public static bitmap4 ofWords(int... words) {
    return new bitmap4(words);
  }

  public static bitmap4 decode(XdrReader r) {
    int n = Xdr4.count(r, Nfs4.ARRAY_LIMIT);
    int[] w = new int[n];
    for (int i = 0; i < n; i++) {
      w[i] = r.int32();
    }
    return new bitmap4(w);
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(words.length);
    for (int x : words) {
      w.int32(x);
    }
  }

  /** Whether attribute {@code attr} is in the set. */
  public boolean has(int attr) {
    return attr >= 0 && attr / 32 < words.length && (words[attr / 32] & (1 << (attr % 32))) != 0;
  }

  /** The attributes in both sets. */
  public bitmap4 and(bitmap4 o) {
    int[] w = new int[Math.min(words.length, o.words.length)];
    for (int i = 0; i < w.length; i++) {
      w[i] = words[i] & o.words[i];
    }
    return new bitmap4(w);
  }

  /** The attributes of this set that are not in {@code o}. */
  public bitmap4 minus(bitmap4 o) {
    int[] w = words.clone();
    for (int i = 0; i < Math.min(w.length, o.words.length); i++) {
      w[i] &= ~o.words[i];
    }
    return new bitmap4(w);
  }

  /** The lowest attribute number in the set at or above {@code from}, or -1. */
  public int next(int from) {
    for (int a = Math.max(from, 0); a < 32 * words.length; a++) {
      int word = words[a / 32] >>> (a % 32);
      if (word == 0) {
        a = (a / 32 + 1) * 32 - 1; // nothing more in this word
        continue;
      }
      a += Integer.numberOfTrailingZeros(word);
      return a;
    }
    return -1;
  }

  public boolean isEmpty() {
    return words.length == 0;
  }

  /** The words (a copy), word 0 first. */
  public int[] words() {
    return words.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof bitmap4 b && Arrays.equals(words, b.words);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(words);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("{");
    for (int a = next(0); a >= 0; a = next(a + 1)) {
      s.append(s.length() > 1 ? "," : "").append(a);
    }
    return s.append('}').toString();
  }
}
