package io.ossgw.nfs.v3;

import io.ossgw.nfs.xdr.nfsstat3;

/** A procedure failed with an nfsstat3; the handler turns it into the procedure's resfail body. */
final class NfsError extends RuntimeException {
  final int status;

  NfsError(int status, String message) {
    super(nfsstat3.name(status) + ": " + message, null, false, false);
    this.status = status;
  }
}
