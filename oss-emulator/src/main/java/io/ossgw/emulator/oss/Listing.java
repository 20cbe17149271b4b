package io.ossgw.emulator.oss;

import io.ossgw.emulator.storage.KeyOrder;
import io.ossgw.emulator.storage.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * One page of a prefix/delimiter listing over a sorted key index. Entries (keys and common prefixes)
 * strictly after {@code after} are returned in order, at most {@code max} of them; a common prefix that
 * sorts at or before {@code after} is skipped whole, so resuming from a NextMarker that is a prefix works.
 * Skipping a common prefix jumps straight past its keys instead of walking them.
 *
 * @param contents  objects on the page
 * @param prefixes  common prefixes on the page
 * @param truncated whether more entries follow
 * @param last      name of the last entry on the page (the resume point), or null
 */
record Listing(List<ObjectMeta> contents, List<String> prefixes, boolean truncated, String last) {

    static Listing page(ConcurrentSkipListMap<String, ObjectMeta> index, String prefix, String delimiter, String after,
                        int max) {
        List<ObjectMeta> contents = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        KeyOrder order = KeyOrder.INSTANCE;
        String cursor = prefix;
        boolean inclusive = true;
        if (after != null && order.compare(after, prefix) >= 0) {
            cursor = after;
            inclusive = false;
        }
        String last = null;
        boolean truncated = false;
        int count = 0;
        while (true) {
            Map.Entry<String, ObjectMeta> e = inclusive ? index.ceilingEntry(cursor) : index.higherEntry(cursor);
            if (e == null || !e.getKey().startsWith(prefix)) {
                break;
            }
            String k = e.getKey();
            if (delimiter != null && !delimiter.isEmpty()) {
                int idx = k.indexOf(delimiter, prefix.length());
                if (idx >= 0) {
                    String cp = k.substring(0, idx + delimiter.length());
                    boolean skip = after != null && order.compare(cp, after) <= 0;
                    if (!skip) {
                        if (count == max) {
                            truncated = true;
                            break;
                        }
                        prefixes.add(cp);
                        last = cp;
                        count++;
                    }
                    cursor = KeyOrder.successor(cp);
                    inclusive = true;
                    if (cursor == null) {
                        break;
                    }
                    continue;
                }
            }
            if (count == max) {
                truncated = true;
                break;
            }
            contents.add(e.getValue());
            last = k;
            count++;
            cursor = k;
            inclusive = false;
        }
        return new Listing(contents, prefixes, truncated, last);
    }
}
