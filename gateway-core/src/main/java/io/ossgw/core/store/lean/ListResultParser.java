package io.ossgw.core.store.lean;

import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ListedObject;
import io.ossgw.core.store.aliyun.KeyCodec;
import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A streaming (StAX) parser of ListObjectsV2's {@code <ListBucketResult>} (reference/oss-api.md §2.2), in one pass
 * and without a DOM: {@code Contents} (Key, LastModified, ETag, Type, Size), {@code CommonPrefixes/Prefix},
 * {@code IsTruncated}, {@code NextContinuationToken}. With {@code encoding-type=url} the keys, prefixes and the token
 * are percent-decoded as the SDK path decodes them ({@link KeyCodec}: a '+' stays a '+'). LastModified (ISO 8601,
 * {@code 2026-11-22T10:51:05.000Z}) is read by hand in its fixed shape, {@link Instant#parse} otherwise: the SDK's
 * new SimpleDateFormat per entry was a visible part of a listing's CPU (docs/benchmarks.md).
 *
 * <p>The factory is configured against XML attacks: no DTD, no external entities (only the five predefined entities
 * and character references are expanded).
 */
final class ListResultParser {
  private static final XMLInputFactory FACTORY = factory();

  private ListResultParser() {}

  private static XMLInputFactory factory() {
    XMLInputFactory f = XMLInputFactory.newDefaultFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    f.setProperty(XMLInputFactory.IS_COALESCING, true);
    f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
    return f;
  }

  /**
   * @param xml the UTF-8 body of a 200 ListObjectsV2 reply
   * @param urlEncoded whether the request asked for {@code encoding-type=url}
   * @throws IllegalStateException on malformed XML or a missing field (the caller reports a malformed response)
   */
  static ListPage parse(byte[] xml, boolean urlEncoded) {
    List<ListedObject> objects = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    String token = null;
    boolean truncated = false;
    try {
      XMLStreamReader r = FACTORY.createXMLStreamReader(new ByteArrayInputStream(xml), "UTF-8");
      try {
        int depth = 0;
        String section = null; // Contents or CommonPrefixes at depth 2
        String key = null;
        String etag = null;
        String type = null;
        Instant modified = null;
        long size = -1;
        while (r.hasNext()) {
          int ev = r.next();
          if (ev == XMLStreamConstants.START_ELEMENT) {
            depth++;
            String name = r.getLocalName();
            if (depth == 2 && (name.equals("Contents") || name.equals("CommonPrefixes"))) {
              section = name;
              key = etag = type = null;
              modified = null;
              size = -1;
            } else if (depth == 2) {
              switch (name) {
                case "IsTruncated" -> truncated = "true".equalsIgnoreCase(r.getElementText().strip());
                case "NextContinuationToken" -> token = r.getElementText();
                default -> {
                  continue; // other top-level fields (Name, Prefix, KeyCount...) are not needed
                }
              }
              depth--; // getElementText consumed the end tag
            } else if (depth == 3 && section != null) {
              switch (name) {
                case "Key", "Prefix" -> key = r.getElementText();
                case "ETag" -> etag = r.getElementText();
                case "Type" -> type = r.getElementText();
                case "Size" -> size = Long.parseLong(r.getElementText().strip());
                case "LastModified" -> modified = iso8601(r.getElementText().strip());
                default -> {
                  continue; // StorageClass, Owner (with children)...: not carried
                }
              }
              depth--; // getElementText consumed the end tag
            }
          } else if (ev == XMLStreamConstants.END_ELEMENT) {
            if (depth == 2 && section != null) {
              if (key == null) {
                throw new IllegalStateException(section + " without " + (section.equals("Contents") ? "Key" : "Prefix"));
              }
              String k = urlEncoded ? KeyCodec.decode(key) : key;
              if (section.equals("Contents")) {
                if (size < 0) {
                  throw new IllegalStateException("Contents without Size for " + k);
                }
                objects.add(new ListedObject(k, size, unquote(etag), modified, type));
              } else {
                prefixes.add(k);
              }
              section = null;
            }
            depth--;
          }
        }
      } finally {
        r.close();
      }
    } catch (XMLStreamException e) {
      throw new IllegalStateException("malformed ListBucketResult: " + e.getMessage(), e);
    }
    String next = truncated ? (urlEncoded ? KeyCodec.decode(token) : token) : null;
    return new ListPage(objects, prefixes, next, truncated);
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

  private static int digits(String s, int at, int count) {
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
