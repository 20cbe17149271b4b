package io.ossgw.nfs.v4.state;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * What NFSv4.1 client state holds, in heap bytes and in client records, in all and per client address, against
 * {@link V4Limits#stateBytes()} (of which an address may hold {@link V4Limits#perAddressBytes()}) and
 * {@link V4Limits#maxClients()} (an address {@link V4Limits#maxClientsPerAddress()}). A client record is charged
 * {@link #recordBytes} when EXCHANGE_ID makes it, a session {@link #sessionBytes} when CREATE_SESSION opens it: its
 * whole reply cache (every slot at the granted ca_maxresponsesize_cached) is reserved then, so the replies it keeps
 * later never need memory that is not there. Both go back when the record or session goes.
 *
 * <p>The byte costs are estimates of the objects kept (with their headers and map entries), on the high side. Not
 * thread-safe: {@link ClientTable}'s monitor guards it.
 */
final class StateBudget {
  /** A client record without its owner and principal: ids, verifier, lease, maps, the CREATE_SESSION reply kept. */
  static final int RECORD_OVERHEAD = 512;
  /** A session without its slots: its id, channel attributes, table entries. */
  static final int SESSION_OVERHEAD = 1024;
  /** A slot without its cached reply: sequence id, flags, request hash, the reply's array header. */
  static final int SLOT_OVERHEAD = 64;

  /** Bytes charged for a client record with an owner of {@code ownerLength} bytes and a principal string. */
  static long recordBytes(int ownerLength, int principalLength) {
    return RECORD_OVERHEAD + ownerLength + 2L * principalLength;
  }

  /** Bytes reserved for a session of {@code slots} slots caching up to {@code cached} bytes each. */
  static long sessionBytes(int slots, int cached) {
    return SESSION_OVERHEAD + (long) slots * (SLOT_OVERHEAD + cached);
  }

  /** What one client address holds. */
  private static final class Share {
    long bytes;
    int records;
  }

  private final V4Limits limits;
  private final Map<InetAddress, Share> byAddress = new HashMap<>();
  private long bytes;
  private int records;

  StateBudget(V4Limits limits) {
    this.limits = limits;
  }

  /** True if {@code address} may hold {@code moreBytes} and {@code moreRecords} more than now. */
  boolean fitsAddress(InetAddress address, long moreBytes, int moreRecords) {
    Share s = byAddress.get(address);
    long b = s == null ? 0 : s.bytes;
    int r = s == null ? 0 : s.records;
    return b + moreBytes <= limits.perAddressBytes() && r + moreRecords <= limits.maxClientsPerAddress();
  }

  /** True if the server may hold {@code moreBytes} and {@code moreRecords} more than now. */
  boolean fitsTotal(long moreBytes, int moreRecords) {
    return bytes + moreBytes <= limits.stateBytes() && records + moreRecords <= limits.maxClients();
  }

  /** Bytes that may still be charged to {@code address} (its share and the server's, whichever is less). */
  long room(InetAddress address) {
    Share s = byAddress.get(address);
    return Math.max(0, Math.min(limits.perAddressBytes() - (s == null ? 0 : s.bytes), limits.stateBytes() - bytes));
  }

  void charge(InetAddress address, long b, int r) {
    Share s = byAddress.computeIfAbsent(address, a -> new Share());
    s.bytes += b;
    s.records += r;
    bytes += b;
    records += r;
  }

  void release(InetAddress address, long b, int r) {
    Share s = byAddress.get(address);
    if (s == null) {
      throw new IllegalStateException("nothing charged to " + address);
    }
    s.bytes -= b;
    s.records -= r;
    bytes -= b;
    records -= r;
    if (s.bytes == 0 && s.records == 0) {
      byAddress.remove(address);
    }
  }

  /** Bytes charged in all. */
  long bytes() {
    return bytes;
  }

  /** Bytes charged to one address. */
  long bytes(InetAddress address) {
    Share s = byAddress.get(address);
    return s == null ? 0 : s.bytes;
  }

  /** Client records held by one address. */
  int records(InetAddress address) {
    Share s = byAddress.get(address);
    return s == null ? 0 : s.records;
  }
}
