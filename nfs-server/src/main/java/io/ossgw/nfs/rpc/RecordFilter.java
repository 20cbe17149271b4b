package io.ossgw.nfs.rpc;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.RpcMessageParserTCP;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;

/**
 * RPC record marking over TCP (RFC 5531 §11) with limits. oncrpc4j's parser buffers a record of any announced size
 * (up to 2 GiB per fragment) until it is complete; this filter first walks the fragment headers already received and
 * closes the connection as soon as a record announces more than {@code maxRecord} bytes or {@code maxFragments}
 * fragments, so a hostile length field costs nothing. Complete records are then assembled by oncrpc4j.
 */
final class RecordFilter extends RpcMessageParserTCP {
  private static final System.Logger LOG = System.getLogger(RecordFilter.class.getName());
  private final int maxRecord;
  private final int maxFragments;

  /**
   * @param maxRecord largest record, bytes (all fragments' payloads)
   * @param maxFragments most fragments in one record
   */
  RecordFilter(int maxRecord, int maxFragments) {
    this.maxRecord = maxRecord;
    this.maxFragments = maxFragments;
  }

  @Override
  public NextAction handleRead(FilterChainContext ctx) throws IOException {
    Buffer b = ctx.getMessage();
    if (b != null && !withinLimits(b)) {
      LOG.log(System.Logger.Level.WARNING, "closing " + ctx.getConnection().getPeerAddress()
          + ": RPC record over " + maxRecord + " bytes or " + maxFragments + " fragments");
      b.tryDispose();
      ctx.getConnection().closeSilently();
      return ctx.getStopAction();
    }
    return super.handleRead(ctx);
  }

  /** Walks the headers of the first record in {@code b} without consuming anything. */
  private boolean withinLimits(Buffer b) {
    int pos = b.position();
    long total = 0;
    int fragments = 0;
    while (pos + 4 <= b.limit()) {
      int marker = b.getInt(pos);
      long size = marker & RPC_SIZE_MASK;
      total += size;
      fragments++;
      if (total > maxRecord || fragments > maxFragments) {
        return false;
      }
      if ((marker & RPC_LAST_FRAG) != 0) {
        return true;
      }
      pos += 4 + (int) size;
    }
    return true; // header not complete yet: checked again when more bytes arrive
  }
}
