package io.ossgw.nfs.xdr;

/**
 * Arguments that cannot be decoded: truncated, a length over the protocol's limit, a bad discriminant. The RPC layer
 * answers GARBAGE_ARGS (RFC 5531 §9). Unchecked so that decoders stay plain functions.
 */
public class XdrException extends RuntimeException {
  public XdrException(String message) {
    super(message, null, false, false);
  }
}
