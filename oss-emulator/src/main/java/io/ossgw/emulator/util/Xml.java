package io.ossgw.emulator.util;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;

/**
 * A small streaming XML writer for OSS response bodies, and a hardened DOM parser for the two request
 * bodies the emulator reads (DeleteMultipleObjects and CompleteMultipartUpload).
 */
public final class Xml {
    private final StringBuilder sb = new StringBuilder(256);
    private final Deque<String> open = new ArrayDeque<>();

    /** Starts a document with the XML declaration and the root element {@code root}. */
    public Xml(String root) {
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        start(root);
    }

    /** Opens element {@code name}. */
    public Xml start(String name) {
        sb.append('<').append(name).append('>');
        open.push(name);
        return this;
    }

    /** Closes the innermost open element. */
    public Xml end() {
        sb.append("</").append(open.pop()).append('>');
        return this;
    }

    /** Writes {@code <name>text</name>}; a null value writes an empty element. */
    public Xml elem(String name, Object value) {
        sb.append('<').append(name).append('>');
        if (value != null) {
            escape(sb, value.toString());
        }
        sb.append("</").append(name).append('>');
        return this;
    }

    /** Closes all open elements and returns the UTF-8 bytes. */
    public byte[] toBytes() {
        while (!open.isEmpty()) {
            end();
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Escapes text for element content; drops characters XML 1.0 cannot carry. */
    public static void escape(StringBuilder out, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                default -> {
                    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                        // Not representable in XML 1.0; clients needing such keys use encoding-type=url.
                        out.append("&#").append((int) c).append(';');
                    } else {
                        out.append(c);
                    }
                }
            }
        }
    }

    /**
     * Parses a small request body (DTDs and external entities disabled).
     *
     * @throws IllegalArgumentException when the body is not well-formed XML
     */
    public static Document parse(byte[] body) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setExpandEntityReferences(false);
            f.setNamespaceAware(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            return b.parse(new ByteArrayInputStream(body));
        } catch (Exception e) {
            throw new IllegalArgumentException("malformed XML: " + e.getMessage(), e);
        }
    }
}
