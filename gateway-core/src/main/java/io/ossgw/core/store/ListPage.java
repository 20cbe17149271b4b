package io.ossgw.core.store;

import java.util.List;

/**
 * One page of ListObjectsV2, keys and prefixes already URL-decoded.
 *
 * @param objects the {@code Contents} entries in key order
 * @param commonPrefixes the {@code CommonPrefixes} (each ends with the delimiter)
 * @param nextContinuationToken the token for the next page, or null when {@code truncated} is false
 * @param truncated IsTruncated
 */
public record ListPage(List<ListedObject> objects, List<String> commonPrefixes, String nextContinuationToken, boolean truncated) {
  public ListPage {
    objects = List.copyOf(objects);
    commonPrefixes = List.copyOf(commonPrefixes);
  }
}
