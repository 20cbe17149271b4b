/**
 * The XDR types of NFS version 3 and MOUNT version 3 (RFC 1813 §2–§5), named as in the RFC: {@code fattr3},
 * {@code GETATTR3args}, {@code READDIR3res}, ... Each is a record with a static {@code decode(XdrReader)} and an
 * {@code encode(XdrWriter)}; a result record holds the fields of both union arms (resok and resfail) and encodes the
 * arm its status selects. RFC optionals ({@code post_op_attr}, {@code pre_op_attr}, {@code post_op_fh3},
 * {@code sattrguard3}) are nullable fields, with codec classes of those names; 8-byte verifiers are longs (the same
 * bytes on the wire).
 *
 * <p>Decoding is bounded: {@link io.ossgw.nfs.xdr.XdrReader} checks every length against a protocol limit before
 * allocating, so hostile length fields cost nothing.
 */
package io.ossgw.nfs.xdr;
