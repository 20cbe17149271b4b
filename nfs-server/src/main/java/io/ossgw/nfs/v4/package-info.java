/**
 * NFSv4.1 (RFC 8881) beside NFSv3: the COMPOUND dispatcher and one class per operation.
 * {@link io.ossgw.nfs.NfsServerBuilder#nfsV41(boolean)} registers {@link io.ossgw.nfs.v4.Nfs4Program} as program
 * 100003 version 4 on the v3 port (off in the builder for library users; {@code ossgw serve} turns it on through
 * {@code ossgw.nfs.versions}, default "3,4.1"). What a client sees is SEMANTICS.md's "NFSv4.1" section.
 *
 * <h2>What exists</h2>
 *
 * <ul>
 *   <li>{@link io.ossgw.nfs.v4.Compound}: COMPOUND over encoded bytes. Minor version 1 only (0 and 2 get
 *       NFS4ERR_MINOR_VERS_MISMATCH so a Linux client settles on 4.1); the operation count is bounded before anything
 *       is read (NFS4ERR_TOO_MANY_OPS); each operation is decoded just before it runs and processing stops at the
 *       first error; SEQUENCE first, or one of EXCHANGE_ID, CREATE_SESSION, DESTROY_SESSION, DESTROY_CLIENTID,
 *       BIND_CONN_TO_SESSION alone (NFS4ERR_NOT_ONLY_OP, NFS4ERR_OP_NOT_IN_SESSION, NFS4ERR_SEQUENCE_POS); numbers
 *       outside 3..58 are NFS4ERR_OP_ILLEGAL, legal operations without a class here NFS4ERR_NOTSUPP, undecodable
 *       arguments NFS4ERR_BADXDR; only an undecodable header throws (GARBAGE_ARGS at the RPC layer).
 *   <li>Operations: EXCHANGE_ID (SP4_NONE only, no pNFS), CREATE_SESSION (no back channel, no persistent cache),
 *       SEQUENCE, DESTROY_SESSION, DESTROY_CLIENTID, BIND_CONN_TO_SESSION (fore channel only), RECLAIM_COMPLETE.
 *   <li>{@code v4.state}: {@link io.ossgw.nfs.v4.state.ClientTable} (client records with the EXCHANGE_ID cases of
 *       RFC 8881 §18.35.5 and the CREATE_SESSION sequence slot of §18.36.4, sessions, leases on an injected
 *       {@link java.time.Clock}, expiry freeing a client's sessions), {@link io.ossgw.nfs.v4.state.SlotTable} (per-slot
 *       sequence ids and the reply cache: exactly-once replay, NFS4ERR_SEQ_MISORDERED, NFS4ERR_BADSLOT,
 *       NFS4ERR_SEQ_FALSE_RETRY by a CRC32C of the whole request, NFS4ERR_RETRY_UNCACHED_REP over
 *       ca_maxresponsesize_cached, NFS4ERR_DELAY while the slot's request runs), {@link
 *       io.ossgw.nfs.v4.state.V4Limits} (lease 90 s, 64 slots, 32 operations, 1 MiB + 64 KiB requests and replies,
 *       64 KiB cached per slot, 128 operations per COMPOUND, 10,000 clients, 16 sessions per client).
 *   <li>Open state and data: OPEN ({@link io.ossgw.nfs.v4.OpenOp}: CLAIM_NULL, CLAIM_FH, CLAIM_PREVIOUS in grace;
 *       UNCHECKED4, GUARDED4, EXCLUSIVE4_1 and EXCLUSIVE4 with an in-memory verifier; share reservations; no
 *       delegations), OPEN_DOWNGRADE, CLOSE (uploads), READ, WRITE (UNSTABLE4 staged; DATA_SYNC4/FILE_SYNC4 upload
 *       first), COMMIT (uploads first), through the open handles and write verifier NFSv3 uses ({@link
 *       io.ossgw.nfs.fs.OpenFiles}, {@link io.ossgw.nfs.fs.WriteVerifier}), so a v3 and a v4.1 client of one file
 *       see one state. {@link io.ossgw.nfs.v4.state.OpenState} (one stateid per open owner and file) and {@link
 *       io.ossgw.nfs.v4.state.Opens} (share reservations, a dropped client's files closed and uploaded); the
 *       current stateid of a compound (RFC 8881 §16.2.3.1.2); anonymous and READ-bypass stateids as Linux knfsd.
 *   <li>Byte-range locks: LOCK, LOCKT, LOCKU ({@link io.ossgw.nfs.v4.LockState}: one lock stateid per lock owner
 *       and file, made through an open stateid) in the gateway's one {@code io.ossgw.core.lock.LockTable}, keyed as
 *       NLM keys files, so NFSv3 (NLM) and v4.1 clients contend; the waiting lock types answer NFS4ERR_DENIED at once
 *       (no CB_NOTIFY_LOCK: the client polls); TEST_STATEID, FREE_STATEID (NFS4ERR_LOCKS_HELD for an open or a lock
 *       stateid with locks); CLOSE refused while the open's lock owners hold locks; DESTROY_CLIENTID refused while
 *       the client holds state. A dropped client (lease expired, found by the server's {@link
 *       io.ossgw.nfs.v4.state.Reaper} every second) loses its locks.
 *   <li>Grace and reclaim ({@link io.ossgw.nfs.v4.state.ClientStore}, {@link io.ossgw.nfs.v4.state.Grace}): the
 *       owners of clients holding state are kept in the state directory ({@code nfs4-clients}); after a restart
 *       they, and only they, reclaim (OPEN CLAIM_PREVIOUS, LOCK reclaim; others NFS4ERR_RECLAIM_BAD) during a grace
 *       period in which new opens, locks and LOCKT get NFS4ERR_GRACE; it ends after {@code v4Grace} or when all of
 *       them sent RECLAIM_COMPLETE, after which reclaims get NFS4ERR_NO_GRACE. No known clients (a first start, or no
 *       state directory): no grace period.
 *   <li>{@code v4.xdr}: the RFC 8881 types of those operations with bounded decoding (opaque and string lengths,
 *       array counts), reusing {@link io.ossgw.nfs.xdr.XdrReader}/{@link io.ossgw.nfs.xdr.XdrWriter}.
 * </ul>
 *
 * <h2>What is next</h2>
 *
 * <ol>
 *   <li>A zero-copy COMPOUND body for WRITE (today {@link io.ossgw.nfs.v4.Nfs4Program} copies the body to hash it
 *       for the slot cache).
 *   <li>Open state still missing: EXCLUSIVE4_1 verifiers kept in the file's attributes (today in memory for 10
 *       minutes, as v3's); a zero-copy WRITE body.
 *   <li>Locks: NLM honours the v4.1 grace period (no new NLM lock while v4.1 clients reclaim) but NLM clients are
 *       not recorded across restarts; LOCK on a directory or special file of an export answers NFS4ERR_BAD_STATEID
 *       (no open can name it) and LOCKT on one tests it like a file, where the Linux server answers NFS4ERR_ISDIR /
 *       NFS4ERR_WRONG_TYPE; RELEASE_LOCKOWNER is v4.0-only and not offered.
 *   <li>Directories: REMOVE and RENAME do not answer NFS4ERR_GRACE during the grace period (RFC 8881 allows it for
 *       a name a reclaiming client may hold open); READDIR inside an export does not cross into an export nested
 *       below it (LOOKUP does: the entry shows the outer export's directory).
 *   <li>Checks still missing in the machinery: NFS4ERR_REP_TOO_BIG against ca_maxresponsesize, the rule that
 *       DESTROY_SESSION of the compound's own session is its last operation, sa_cachethis (every reply is cached
 *       today, within the size limit).
 * </ol>
 */
package io.ossgw.nfs.v4;
