package io.ossgw.nfs.rpc;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.memory.BuffersBuffer;
import org.glassfish.grizzly.memory.ByteBufferArray;
import org.glassfish.grizzly.memory.ByteBufferWrapper;
import org.glassfish.grizzly.memory.MemoryManager;

/**
 * A finished reply laid out in direct memory only, as Grizzly writes it without copying: the RPC record mark (RFC 5531
 * §11, one last fragment) and each run of heap-encoded parts copied, in order, into one pooled head buffer of the
 * call's {@link CallScope}; direct parts (READ data in {@link ReplyMemory} buffers) as they are, between them. Given a
 * heap part, Grizzly (TCPNIOUtils.writeCompositeBuffer) copies the reply into a direct buffer of the whole reply's size
 * that it caches per thread; calls run on virtual threads, one per call, so that was a new {@code allocateDirect} per
 * reply, 1 MiB for a 1 MiB READ whose data was already direct, freed only when the garbage collector next ran: up to
 * 230 MB of direct memory waiting for a collection in the NFS small-file reads (docs/benchmarks.md "Inside
 * memory_limit"). The copy of the heap parts here is the one Grizzly made; the allocation is gone.
 */
final class DirectReply {
  private static final int LAST_FRAGMENT = 0x80000000;

  private DirectReply() {}

  /**
   * The record mark and {@code body} (position to limit, unchanged) as one direct buffer or a composite of direct
   * ones, or null when no head buffer is to be had (the heap parts and mark over {@link ReplyMemory#LARGE} bytes, the
   * pool spent, the call over): the caller then sends it as before.
   *
   * @param memory the connection's memory manager (for the composite)
   */
  static Buffer of(Buffer body, CallScope scope, MemoryManager<?> memory) {
    int length = body.remaining();
    ByteBufferArray parts = body.toByteBufferArray();
    try {
      ByteBuffer[] array = parts.getArray();
      int n = parts.size();
      int heapBytes = Integer.BYTES;
      int directParts = 0;
      for (int i = 0; i < n; i++) {
        if (array[i].isDirect()) {
          directParts++;
        } else {
          heapBytes += array[i].remaining();
        }
      }
      ByteBuffer head = scope.headBuffer(heapBytes);
      if (head == null) {
        return null;
      }
      head.putInt(LAST_FRAGMENT | length);
      List<Buffer> out = new ArrayList<>(2 * directParts + 1);
      int run = 0; // where the current run of heap bytes starts in head
      for (int i = 0; i < n; i++) {
        ByteBuffer part = array[i];
        if (!part.isDirect()) {
          head.put(part.duplicate());
        } else if (part.hasRemaining()) {
          run = flush(head, run, out);
          out.add(new ByteBufferWrapper(part.slice()));
        }
      }
      flush(head, run, out);
      return out.size() == 1 ? out.getFirst() : BuffersBuffer.create(memory, out.toArray(new Buffer[0]));
    } finally {
      parts.restore();
      parts.recycle();
    }
  }

  /** Adds head's bytes from {@code run} to its position as a part, if any; returns where the next run starts. */
  private static int flush(ByteBuffer head, int run, List<Buffer> out) {
    int end = head.position();
    if (end > run) {
      out.add(new ByteBufferWrapper(head.slice(run, end - run)));
    }
    return end;
  }
}
