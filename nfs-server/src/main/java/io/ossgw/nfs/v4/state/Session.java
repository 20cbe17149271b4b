package io.ossgw.nfs.v4.state;

import io.ossgw.nfs.v4.xdr.channel_attrs4;
import io.ossgw.nfs.v4.xdr.sessionid4;

/**
 * One NFSv4.1 session (RFC 8881 §2.10): its id, owning client, the fore channel limits granted by CREATE_SESSION and
 * the fore channel slot table, and the bytes reserved for it (its reply cache whole, {@link StateBudget#sessionBytes}).
 * No back channel is kept (no delegations or layouts are issued).
 */
public final class Session {
  private final sessionid4 id;
  private final ClientRecord client;
  private final channel_attrs4 fore;
  private final SlotTable slots;
  final long charged;

  Session(sessionid4 id, ClientRecord client, channel_attrs4 fore) {
    this.id = id;
    this.client = client;
    this.fore = fore;
    this.slots = new SlotTable(fore.maxrequests());
    this.charged = StateBudget.sessionBytes(fore.maxrequests(), fore.maxresponsesizeCached());
  }

  public sessionid4 id() {
    return id;
  }

  public ClientRecord client() {
    return client;
  }

  /** The fore channel attributes granted. */
  public channel_attrs4 fore() {
    return fore;
  }

  public SlotTable slots() {
    return slots;
  }
}
