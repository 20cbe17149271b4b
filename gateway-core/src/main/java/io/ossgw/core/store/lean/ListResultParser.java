package io.ossgw.core.store.lean;

import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ListedObject;
import io.ossgw.core.store.aliyun.KeyCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * A one-pass parser of ListObjectsV2's {@code <ListBucketResult>} (reference/oss-api.md §2.2) over the UTF-8 bytes of
 * the reply, without a DOM or a general XML parser: {@code Contents} (Key, LastModified, ETag, Type, Size),
 * {@code CommonPrefixes/Prefix}, {@code IsTruncated}, {@code NextContinuationToken}; other elements (Owner,
 * StorageClass, KeyCount...) are skipped whatever they hold. With {@code encoding-type=url} the keys, prefixes and the
 * token are percent-decoded as the SDK path decodes them ({@link KeyCodec}: a '+' stays a '+'). LastModified (ISO
 * 8601, {@code 2026-11-22T10:51:05.000Z}) is read by hand in its fixed shape, {@link Instant#parse} otherwise.
 *
 * <p>Why by hand: the JDK's StAX reader took 1.0 ms of CPU per 1,000-entry page, this parser 0.4 ms
 * (docs/benchmarks.md "Lean metadata path"); the SDK's JDOM parse with a new SimpleDateFormat per entry was half of a
 * cold listing's Java samples. What it accepts: elements, attributes (ignored), character data with the five
 * predefined entities and character references, CDATA sections, comments and processing instructions. A DTD
 * ({@code <!DOCTYPE}) or any other entity is refused, so no entity expansion or external fetch can happen.
 */
final class ListResultParser {
  private static final byte[] LIST_BUCKET_RESULT = ascii("ListBucketResult");
  private static final byte[] CONTENTS = ascii("Contents");
  private static final byte[] COMMON_PREFIXES = ascii("CommonPrefixes");
  private static final byte[] KEY = ascii("Key");
  private static final byte[] PREFIX = ascii("Prefix");
  private static final byte[] ETAG = ascii("ETag");
  private static final byte[] TYPE = ascii("Type");
  private static final byte[] SIZE = ascii("Size");
  private static final byte[] LAST_MODIFIED = ascii("LastModified");
  private static final byte[] IS_TRUNCATED = ascii("IsTruncated");
  private static final byte[] NEXT_TOKEN = ascii("NextContinuationToken");

  private ListResultParser() {}

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** The parse state of one page. */
  private static final class State {
    final byte[] b;
    final boolean url;
    final List<ListedObject> objects = new ArrayList<>();
    final List<String> prefixes = new ArrayList<>();
    String token;
    boolean truncated;
    /** 0 outside an entry, 1 in Contents, 2 in CommonPrefixes (at depth 2). */
    int section;
    String key;
    String etag;
    String type;
    Instant modified;
    long size;

    State(byte[] b, boolean url) {
      this.b = b;
      this.url = url;
    }
  }

  /**
   * @param xml the UTF-8 body of a 200 ListObjectsV2 reply
   * @param urlEncoded whether the request asked for {@code encoding-type=url}
   * @throws IllegalStateException on malformed XML, a DTD, or a missing field (the caller reports a malformed
   *     response)
   */
  static ListPage parse(byte[] xml, boolean urlEncoded) {
    State st = new State(xml, urlEncoded);
    byte[] b = xml;
    int n = b.length;
    int depth = 0;
    boolean rootSeen = false;
    boolean leaf = false; // inside an element that has had no child element yet: its text is collected
    int textStart = -1;
    StringBuilder cdata = null; // text of a leaf that had CDATA or entities, else null (then [textStart, lt) is it)
    int i = 0;
    while (true) {
      int lt = indexOf(b, (byte) '<', i);
      if (lt < 0) {
        if (depth != 0 || !rootSeen) {
          throw new IllegalStateException("ListBucketResult ends early");
        }
        return finish(st);
      }
      if (leaf && lt > i && cdata != null) {
        text(cdata, b, i, lt);
      }
      if (lt + 1 >= n) {
        throw new IllegalStateException("'<' at the end of the reply");
      }
      byte c = b[lt + 1];
      if (leaf && cdata == null && (c == '?' || c == '!')) {
        // a comment, PI or CDATA section inside the text: collect the text piecewise from here on
        cdata = new StringBuilder();
        text(cdata, b, textStart, lt);
      }
      if (c == '?') {
        i = after(b, "?>", lt);
        continue;
      }
      if (c == '!') {
        if (startsWith(b, lt, "<!--")) {
          i = after(b, "-->", lt + 4);
          continue;
        }
        if (startsWith(b, lt, "<![CDATA[")) {
          int end = after(b, "]]>", lt + 9);
          if (leaf) {
            cdata.append(new String(b, lt + 9, end - 3 - (lt + 9), StandardCharsets.UTF_8));
          }
          i = end;
          continue;
        }
        throw new IllegalStateException("DTDs and declarations are not accepted in a ListBucketResult");
      }
      int ns = c == '/' ? lt + 2 : lt + 1;
      int ne = nameEnd(b, ns);
      // the common tag has no attributes: its '>' follows the name (or "/>")
      int gt = b[ne] == '>' ? ne : b[ne] == '/' && ne + 1 < n && b[ne + 1] == '>' ? ne + 1 : tagEnd(b, ne);
      if (c == '/') {
        String text = null;
        if (leaf) {
          text = cdata != null ? cdata.toString() : text(null, b, textStart, lt);
        }
        end(st, depth, b, ns, ne, text);
        depth--;
        leaf = false;
        cdata = null;
        i = gt + 1;
        continue;
      }
      depth++;
      if (depth == 1) {
        if (rootSeen || !is(b, ns, ne, LIST_BUCKET_RESULT)) {
          throw new IllegalStateException("not a ListBucketResult");
        }
        rootSeen = true;
      }
      start(st, depth, b, ns, ne);
      cdata = null;
      if (b[gt - 1] == '/') { // <Name/>: an empty element
        end(st, depth, b, ns, ne, "");
        depth--;
        leaf = false;
      } else {
        leaf = true;
        textStart = gt + 1;
      }
      i = gt + 1;
    }
  }

  private static void start(State st, int depth, byte[] b, int ns, int ne) {
    if (depth == 2) {
      st.section = is(b, ns, ne, CONTENTS) ? 1 : is(b, ns, ne, COMMON_PREFIXES) ? 2 : 0;
      st.key = st.etag = st.type = null;
      st.modified = null;
      st.size = -1;
    }
  }

  /** An element ends; {@code text} is its character data when it had no child element, else null. */
  private static void end(State st, int depth, byte[] b, int ns, int ne, String text) {
    if (depth == 3 && st.section != 0 && text != null) {
      if (is(b, ns, ne, st.section == 1 ? KEY : PREFIX)) {
        st.key = text;
      } else if (st.section == 1) {
        if (is(b, ns, ne, SIZE)) {
          st.size = Long.parseLong(text.strip());
        } else if (is(b, ns, ne, ETAG)) {
          st.etag = text;
        } else if (is(b, ns, ne, LAST_MODIFIED)) {
          st.modified = iso8601(text.strip());
        } else if (is(b, ns, ne, TYPE)) {
          st.type = text;
        }
      }
    } else if (depth == 2 && st.section != 0) {
      if (st.key == null) {
        throw new IllegalStateException(st.section == 1 ? "Contents without Key" : "CommonPrefixes without Prefix");
      }
      String k = st.url ? KeyCodec.decode(st.key) : st.key;
      if (st.section == 1) {
        if (st.size < 0) {
          throw new IllegalStateException("Contents without Size for " + k);
        }
        st.objects.add(new ListedObject(k, st.size, unquote(st.etag), st.modified, st.type));
      } else {
        st.prefixes.add(k);
      }
      st.section = 0;
    } else if (depth == 2 && text != null) {
      if (is(b, ns, ne, IS_TRUNCATED)) {
        st.truncated = "true".equalsIgnoreCase(text.strip());
      } else if (is(b, ns, ne, NEXT_TOKEN)) {
        st.token = text;
      }
    }
  }

  private static ListPage finish(State st) {
    String next = st.truncated ? (st.url ? KeyCodec.decode(st.token) : st.token) : null;
    if (st.truncated && next == null) {
      throw new IllegalStateException("IsTruncated without NextContinuationToken");
    }
    return new ListPage(st.objects, st.prefixes, next, st.truncated);
  }

  /**
   * The character data {@code [from, to)} with entities expanded: appended to {@code sb} when given (and null
   * returned), else returned as a String.
   */
  private static String text(StringBuilder sb, byte[] b, int from, int to) {
    int amp = indexOf(b, (byte) '&', from, to);
    if (amp < 0) {
      String s = new String(b, from, to - from, StandardCharsets.UTF_8);
      if (sb == null) {
        return s;
      }
      sb.append(s);
      return null;
    }
    StringBuilder out = sb != null ? sb : new StringBuilder(to - from);
    int i = from;
    while (amp >= 0) {
      out.append(new String(b, i, amp - i, StandardCharsets.UTF_8));
      int semi = indexOf(b, (byte) ';', amp, Math.min(to, amp + 12));
      if (semi < 0) {
        throw new IllegalStateException("a bare '&' in character data");
      }
      String ref = new String(b, amp + 1, semi - amp - 1, StandardCharsets.US_ASCII);
      switch (ref) {
        case "amp" -> out.append('&');
        case "lt" -> out.append('<');
        case "gt" -> out.append('>');
        case "quot" -> out.append('"');
        case "apos" -> out.append('\'');
        default -> {
          if (ref.length() < 2 || ref.charAt(0) != '#') {
            throw new IllegalStateException("entity &" + ref + "; is not accepted");
          }
          int cp = ref.charAt(1) == 'x' ? Integer.parseInt(ref.substring(2), 16) : Integer.parseInt(ref.substring(1));
          out.appendCodePoint(cp);
        }
      }
      i = semi + 1;
      amp = indexOf(b, (byte) '&', i, to);
    }
    out.append(new String(b, i, to - i, StandardCharsets.UTF_8));
    return sb != null ? null : out.toString();
  }

  /** The '>' closing a tag, from {@code from} (past its name), skipping quoted attribute values. */
  private static int tagEnd(byte[] b, int from) {
    byte quote = 0;
    for (int i = from; i < b.length; i++) {
      byte c = b[i];
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '>') {
        return i;
      }
    }
    throw new IllegalStateException("unterminated tag");
  }

  /** The end of the tag name starting at {@code from}: the first blank, '/' or '>'. */
  private static int nameEnd(byte[] b, int from) {
    for (int i = from; i < b.length; i++) {
      byte c = b[i];
      if (c == '>' || c == '/' || c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        return i;
      }
    }
    throw new IllegalStateException("unterminated tag");
  }

  private static boolean is(byte[] b, int from, int to, byte[] name) {
    return to - from == name.length && java.util.Arrays.equals(b, from, to, name, 0, name.length);
  }

  private static boolean startsWith(byte[] b, int at, String s) {
    if (at + s.length() > b.length) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (b[at + i] != s.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** The index just past the first {@code s} at or after {@code from}. */
  private static int after(byte[] b, String s, int from) {
    outer:
    for (int i = from; i + s.length() <= b.length; i++) {
      for (int j = 0; j < s.length(); j++) {
        if (b[i + j] != s.charAt(j)) {
          continue outer;
        }
      }
      return i + s.length();
    }
    throw new IllegalStateException("unterminated " + s);
  }

  private static int indexOf(byte[] b, byte c, int from) {
    return indexOf(b, c, from, b.length);
  }

  private static int indexOf(byte[] b, byte c, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  /** {@code yyyy-MM-ddTHH:mm:ss[.fff]Z} by hand, else {@link Instant#parse}. */
  static Instant iso8601(String s) {
    int n = s.length();
    if ((n == 20 || n == 24) && s.charAt(4) == '-' && s.charAt(7) == '-' && s.charAt(10) == 'T' && s.charAt(13) == ':'
        && s.charAt(16) == ':' && s.charAt(n - 1) == 'Z' && (n == 20 || s.charAt(19) == '.')) {
      int year = digits(s, 0, 4);
      int month = digits(s, 5, 2);
      int day = digits(s, 8, 2);
      int hour = digits(s, 11, 2);
      int minute = digits(s, 14, 2);
      int second = digits(s, 17, 2);
      int milli = n == 24 ? digits(s, 20, 3) : 0;
      if (year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour >= 0 && hour < 24 && minute >= 0
          && minute < 60 && second >= 0 && second < 60 && milli >= 0) {
        try {
          long epochDay = LocalDate.of(year, month, day).toEpochDay();
          return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3600L + minute * 60L + second, milli * 1_000_000L);
        } catch (java.time.DateTimeException e) {
          // e.g. February 30th: let Instant.parse report it
        }
      }
    }
    return Instant.parse(s);
  }

  /** The decimal number in {@code s[at, at + count)}, or -1 if any of those characters is not a digit. */
  static int digits(String s, int at, int count) {
    int v = 0;
    for (int i = at; i < at + count; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  private static String unquote(String etag) {
    if (etag == null) {
      return null;
    }
    String e = etag.strip();
    return e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"") ? e.substring(1, e.length() - 1) : e;
  }
}
