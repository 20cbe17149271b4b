package io.ossgw.nfs.xdr;

/**
 * A file name or path that is not valid UTF-8. OSS keys are UTF-8, so such a name can never exist; NFS procedures
 * answer NFS3ERR_INVAL (MOUNT: MNT3ERR_INVAL) rather than GARBAGE_ARGS, because the XDR itself was well formed.
 */
public final class XdrNameException extends XdrException {
  public XdrNameException(String message) {
    super(message);
  }
}
