package io.ossgw.emulator.oss;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An OSS error reply: HTTP status, {@code Code}, {@code Message}, {@code EC} and extra XML elements
 * (such as {@code Key} or {@code StringToSign}) or extra response headers
 * (such as {@code x-oss-next-append-position} on PositionNotEqualToLength).
 */
public final class OssException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final String code;
    private final String ec;
    private final Map<String, String> elements = new LinkedHashMap<>();
    private final Map<String, String> headers = new LinkedHashMap<>();

    /**
     * @param status HTTP status
     * @param code   OSS error code, e.g. {@code NoSuchKey}
     * @param message human-readable message
     * @param ec     OSS "EC" detail code such as {@code 0026-00000001}, or null
     */
    public OssException(int status, String code, String message, String ec) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.ec = ec;
    }

    /** Adds an extra XML element to the error body (after HostId). */
    public OssException with(String element, String value) {
        if (value != null) {
            elements.put(element, value);
        }
        return this;
    }

    /** Adds a response header to the error reply. */
    public OssException header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String ec() {
        return ec;
    }

    public Map<String, String> elements() {
        return elements;
    }

    public Map<String, String> headers() {
        return headers;
    }
}
