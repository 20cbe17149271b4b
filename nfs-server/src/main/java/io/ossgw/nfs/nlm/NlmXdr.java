package io.ossgw.nfs.nlm;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * The NLM v4 argument and result types (RFC 1813 appendix II / XNFS chapter 14), with X/Open's names. Decoding is
 * bounded (netobj at most {@link Nlm4#MAXNETOBJ_SZ}, strings at most {@link Nlm4#LM_MAXSTRLEN}); malformed input
 * throws {@link io.ossgw.nfs.xdr.XdrException}, which the server answers GARBAGE_ARGS.
 */
final class NlmXdr {
  private NlmXdr() {}

  static byte[] netobj(XdrReader r) {
    return r.opaque(Nlm4.MAXNETOBJ_SZ);
  }

  /**
   * struct nlm4_lock: who locks which range of which file.
   *
   * @param offset l_offset, an unsigned 64-bit value (may be negative as a Java long)
   * @param length l_len, unsigned; 0 = to end of file
   */
  record nlm4_lock(String caller_name, byte[] fh, byte[] oh, int svid, long offset, long length) {
    static nlm4_lock decode(XdrReader r) {
      return new nlm4_lock(r.string(Nlm4.LM_MAXSTRLEN), netobj(r), netobj(r), r.int32(), r.int64(), r.int64());
    }

    void encode(XdrWriter w) {
      w.string(caller_name).opaque(fh).opaque(oh).int32(svid).int64(offset).int64(length);
    }
  }

  /** struct nlm4_testargs. */
  record nlm4_testargs(byte[] cookie, boolean exclusive, nlm4_lock alock) {
    static nlm4_testargs decode(XdrReader r) {
      return new nlm4_testargs(netobj(r), r.bool(), nlm4_lock.decode(r));
    }
  }

  /** struct nlm4_lockargs (LOCK and NM_LOCK). */
  record nlm4_lockargs(byte[] cookie, boolean block, boolean exclusive, nlm4_lock alock, boolean reclaim, int state) {
    static nlm4_lockargs decode(XdrReader r) {
      return new nlm4_lockargs(netobj(r), r.bool(), r.bool(), nlm4_lock.decode(r), r.bool(), r.int32());
    }
  }

  /** struct nlm4_cancargs. */
  record nlm4_cancargs(byte[] cookie, boolean block, boolean exclusive, nlm4_lock alock) {
    static nlm4_cancargs decode(XdrReader r) {
      return new nlm4_cancargs(netobj(r), r.bool(), r.bool(), nlm4_lock.decode(r));
    }
  }

  /** struct nlm4_unlockargs. */
  record nlm4_unlockargs(byte[] cookie, nlm4_lock alock) {
    static nlm4_unlockargs decode(XdrReader r) {
      return new nlm4_unlockargs(netobj(r), nlm4_lock.decode(r));
    }
  }

  /** struct nlm4_share plus the reclaim flag: struct nlm4_shareargs. mode is fsh4_mode, access fsh4_access. */
  record nlm4_shareargs(byte[] cookie, String caller_name, byte[] fh, byte[] oh, int mode, int access,
      boolean reclaim) {
    static nlm4_shareargs decode(XdrReader r) {
      return new nlm4_shareargs(netobj(r), r.string(Nlm4.LM_MAXSTRLEN), netobj(r), netobj(r), r.enumValue(0, 3),
          r.enumValue(0, 3), r.bool());
    }
  }

  /** struct nlm4_notify (FREE_ALL): the client's name and its NSM state. */
  record nlm4_notify(String name, int state) {
    static nlm4_notify decode(XdrReader r) {
      return new nlm4_notify(r.string(Nlm4.SM_MAXSTRLEN), r.int32());
    }
  }

  /** struct nlm4_res: LOCK, CANCEL, UNLOCK, GRANTED, NM_LOCK. */
  record nlm4_res(byte[] cookie, int stat) implements XdrType {
    @Override
    public void encode(XdrWriter w) {
      w.opaque(cookie).int32(stat);
    }
  }

  /**
   * struct nlm4_holder: the conflicting lock TEST reports.
   *
   * @param length l_len, 0 = to end of file
   */
  record nlm4_holder(boolean exclusive, int svid, byte[] oh, long offset, long length) {
    void encode(XdrWriter w) {
      w.bool(exclusive).int32(svid).opaque(oh).int64(offset).int64(length);
    }
  }

  /** struct nlm4_testres: the union nlm4_testrply carries the holder only for NLM4_DENIED. */
  record nlm4_testres(byte[] cookie, int stat, nlm4_holder holder) implements XdrType {
    @Override
    public void encode(XdrWriter w) {
      w.opaque(cookie).int32(stat);
      if (stat == Nlm4.NLM4_DENIED) {
        holder.encode(w);
      }
    }
  }

  /** struct nlm4_shareres. */
  record nlm4_shareres(byte[] cookie, int stat, int sequence) implements XdrType {
    @Override
    public void encode(XdrWriter w) {
      w.opaque(cookie).int32(stat).int32(sequence);
    }
  }
}
