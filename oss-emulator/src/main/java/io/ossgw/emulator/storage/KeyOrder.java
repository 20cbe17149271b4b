package io.ossgw.emulator.storage;

import java.util.Comparator;

/**
 * Orders keys by Unicode code point, which equals the UTF-8 byte order OSS lists in (String's natural
 * UTF-16 order differs for characters beyond the BMP).
 */
public final class KeyOrder implements Comparator<String> {
    /** The shared instance. */
    public static final KeyOrder INSTANCE = new KeyOrder();

    private KeyOrder() {
    }

    @Override
    public int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /**
     * The smallest string greater than every string starting with {@code prefix} (the prefix with its last
     * code point incremented), or null if there is none.
     */
    public static String successor(String prefix) {
        if (prefix.isEmpty()) {
            return null;
        }
        int last = prefix.codePointBefore(prefix.length());
        String head = prefix.substring(0, prefix.length() - Character.charCount(last));
        if (last == Character.MAX_CODE_POINT) {
            return successor(head);
        }
        int next = last + 1;
        if (next >= Character.MIN_SURROGATE && next <= Character.MAX_SURROGATE) {
            next = Character.MAX_SURROGATE + 1;
        }
        return head + new String(Character.toChars(next));
    }
}
