package io.ossgw.app.smb;

import java.util.Objects;

/**
 * An SMB user: an NTLM account in the gateway's passdb, backed by a Unix account of the same name.
 *
 * @param name the user name (a valid Unix account name)
 * @param password the password (never printed by {@link #toString})
 */
public record SmbUser(String name, String password) {
  public SmbUser {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(password, "password");
  }

  @Override
  public String toString() {
    return "SmbUser[" + name + "]";
  }
}
