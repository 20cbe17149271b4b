package io.ossgw.emulator.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Request headers: names folded to lower case (HTTP names are case-insensitive), values in arrival order.
 */
public final class Headers {
    private final Map<String, List<String>> map = new LinkedHashMap<>();

    /** Adds one value; {@code name} may be in any case. */
    public void add(String name, String value) {
        map.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>(1)).add(value);
    }

    /** First value of {@code name} (any case), or null. */
    public String first(String name) {
        List<String> v = map.get(name.toLowerCase(Locale.ROOT));
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    /** All values of {@code name}, possibly empty. */
    public List<String> all(String name) {
        List<String> v = map.get(name.toLowerCase(Locale.ROOT));
        return v == null ? List.of() : Collections.unmodifiableList(v);
    }

    /** Whether {@code name} is present. */
    public boolean has(String name) {
        return map.containsKey(name.toLowerCase(Locale.ROOT));
    }

    /** Read-only view, lower-case names to values. */
    public Map<String, List<String>> asMap() {
        return Collections.unmodifiableMap(map);
    }
}
