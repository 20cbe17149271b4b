package io.ossgw.app.smb;

/** SMB could not be started or configured; the message is for the user (it never contains a password). */
public class SmbException extends RuntimeException {
  public SmbException(String message) {
    super(message);
  }

  public SmbException(String message, Throwable cause) {
    super(message, cause);
  }
}
