package io.ossgw.nfs.v4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.nfs.v4.xdr.*;
import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.Xdrs;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every NFSv4.1 type of {@code v4.xdr} that decodes: encode, decode, encode again gives the same bytes (distinct
 * field values catch swapped fields), and every strict prefix of the encoding fails with {@link XdrException}.
 */
class Xdr4RoundTripTest {
  static Stream<Arguments> values() {
    sessionid4 sid = new sessionid4(0x0102030405060708L, 0x1112131415161718L);
    channel_attrs4 ca = new channel_attrs4(1, 2, 3, 4, 5, 6, 7);
    channel_attrs4 caNoIrd = new channel_attrs4(11, 12, 13, 14, 15, 16, null);
    nfs_impl_id4 impl = new nfs_impl_id4("dom", "name", 1234567890123L, 999);
    client_owner4 owner = new client_owner4(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, "owner".getBytes());
    return Stream.of(
        a(sid, sessionid4::decode),
        a(ca, channel_attrs4::decode),
        a(caNoIrd, channel_attrs4::decode),
        a(impl, nfs_impl_id4::decode),
        a(owner, client_owner4::decode),
        a(new EXCHANGE_ID4args(owner, 0x10001, state_protect4_a.NONE, impl), EXCHANGE_ID4args::decode),
        a(new EXCHANGE_ID4args(owner, 3, new state_protect4_a(Nfs4.SP4_SSV), null), EXCHANGE_ID4args::decode),
        a(new EXCHANGE_ID4resok(77, 5, 0x80010000, 9, "maj".getBytes(), "scope".getBytes(), impl),
            EXCHANGE_ID4resok::decode),
        a(new CREATE_SESSION4args(88, 2, 1, ca, caNoIrd, 0x40000000, 3), CREATE_SESSION4args::decode),
        a(new CREATE_SESSION4resok(sid, 2, 0, ca, caNoIrd), CREATE_SESSION4resok::decode),
        a(new SEQUENCE4args(sid, 21, 22, 23, true), SEQUENCE4args::decode),
        a(new SEQUENCE4resok(sid, 31, 32, 33, 34, 35), SEQUENCE4resok::decode),
        a(new DESTROY_SESSION4args(sid), DESTROY_SESSION4args::decode),
        a(new DESTROY_CLIENTID4args(-5), DESTROY_CLIENTID4args::decode),
        a(new RECLAIM_COMPLETE4args(true), RECLAIM_COMPLETE4args::decode),
        a(new BIND_CONN_TO_SESSION4args(sid, 3, true), BIND_CONN_TO_SESSION4args::decode),
        a(new BIND_CONN_TO_SESSION4resok(sid, 1, false), BIND_CONN_TO_SESSION4resok::decode),
        a(new COMPOUND4res(Nfs4.NFS4ERR_NOTSUPP, "tag".getBytes(), List.of(
            new nfs_resop4(Nfs4.OP_SEQUENCE, 0, new SEQUENCE4resok(sid, 1, 2, 3, 4, 0)),
            nfs_resop4.of(24, Nfs4.NFS4ERR_NOTSUPP))), COMPOUND4res::decode));
  }

  private static Arguments a(XdrType v, Function<XdrReader, ? extends XdrType> decode) {
    return Arguments.of(v.getClass().getSimpleName(), v, decode);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("values")
  void roundTripsAndRejectsEveryTruncation(String name, XdrType v, Function<XdrReader, ? extends XdrType> decode) {
    byte[] bytes = Xdrs.toBytes(v);
    XdrType back = Xdrs.fromBytes(bytes, decode);
    assertThat(Xdrs.toBytes(back)).isEqualTo(bytes);
    for (int len = 0; len < bytes.length; len += 4) {
      byte[] cut = java.util.Arrays.copyOf(bytes, len);
      assertThatThrownBy(() -> Xdrs.fromBytes(cut, decode)).as("%s cut at %d", name, len)
          .isInstanceOf(XdrException.class);
    }
  }
}
