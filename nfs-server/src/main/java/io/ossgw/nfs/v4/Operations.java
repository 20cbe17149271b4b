package io.ossgw.nfs.v4;

import java.util.ArrayList;
import java.util.List;

/**
 * The operations this server offers, one class each (RFC 8881 §18). Anything legal in minor version 1 and not listed
 * here is answered NFS4ERR_NOTSUPP by {@link Compound}. Grouped by what they work on, one group per line block, so
 * that adding an operation touches one line.
 */
final class Operations {
  private Operations() {}

  static List<Operation<?>> all(String serverOwner) {
    List<Operation<?>> ops = new ArrayList<>();
    // sessions and clients (RFC 8881 §18.35-18.37, §18.46, §18.50-18.51, §18.34)
    ops.addAll(List.of(new ExchangeIdOp(serverOwner), new CreateSessionOp(), new SequenceOp(),
        new DestroySessionOp(), new DestroyClientIdOp(), new ReclaimCompleteOp(), new BindConnToSessionOp()));
    // filehandles, attributes, directories and the namespace
    ops.addAll(List.of(new PutRootFhOp(), new PutPubFhOp(), new PutFhOp(), new GetFhOp(), new SaveFhOp(),
        new RestoreFhOp(), new LookupOp(), new LookupPOp(), new GetAttrOp(), new SetAttrOp(), new AccessOp(),
        new SecInfoOp(), new SecInfoNoNameOp(), new VerifyOp(), new NverifyOp()));
    // directories and the namespace (RFC 8881 §18.23, §18.24, §18.4, §18.25, §18.26, §18.9)
    ops.addAll(List.of(new ReaddirOp(), new ReadlinkOp(), new CreateOp(), new RemoveOp(), new RenameOp(),
        new LinkOp()));
    // open state and data
    ops.addAll(List.of(new OpenOp(), new OpenDowngradeOp(), new CloseOp(), new ReadOp(), new WriteOp(), new CommitOp()));
    // byte-range locks and stateid housekeeping
    ops.addAll(List.of(new LockOp(), new LocktOp(), new LockuOp(), new TestStateidOp(), new FreeStateidOp()));
    return ops;
  }
}
