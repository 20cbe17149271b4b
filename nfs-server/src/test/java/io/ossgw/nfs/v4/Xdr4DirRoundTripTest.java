package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.xdr.*;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The XDR types of READDIR, READLINK, CREATE, REMOVE, RENAME and LINK under {@link Xdr4RoundTripTest}'s check: encode,
 * decode, encode again gives the same bytes, and every strict prefix fails to decode.
 */
class Xdr4DirRoundTripTest {
  static Stream<Arguments> values() {
    change_info4 ci = new change_info4(false, 0x0102030405060708L, 0x1112131415161718L);
    fattr4 attrs = new fattr4(bitmap4.of(Nfs4.FATTR4_TYPE, Nfs4.FATTR4_MODE), new byte[] {0, 0, 0, 2, 0, 0, 1, -19});
    return Stream.of(
        a(ci, change_info4::decode),
        a(new specdata4(8, 1), specdata4::decode),
        a(new createtype4(Nfs4.NF4LNK, "target".getBytes(), null), createtype4::decode),
        a(new createtype4(Nfs4.NF4CHR, null, new specdata4(1, 3)), createtype4::decode),
        a(new createtype4(Nfs4.NF4DIR, null, null), createtype4::decode),
        a(new CREATE4args(new createtype4(Nfs4.NF4FIFO, null, null), "p".getBytes(), attrs), CREATE4args::decode),
        a(new CREATE4resok(ci, bitmap4.of(Nfs4.FATTR4_MODE)), CREATE4resok::decode),
        a(new REMOVE4args("gone".getBytes()), REMOVE4args::decode),
        a(new REMOVE4resok(ci), REMOVE4resok::decode),
        a(new RENAME4args("from".getBytes(), "to".getBytes()), RENAME4args::decode),
        a(new RENAME4resok(ci, new change_info4(true, 5, 6)), RENAME4resok::decode),
        a(new LINK4args("link".getBytes()), LINK4args::decode),
        a(new LINK4resok(ci), LINK4resok::decode),
        a(new READLINK4resok("../somewhere/é"), READLINK4resok::decode),
        a(new READDIR4args(7, 0x2122232425262728L, 4096, 8192, bitmap4.of(Nfs4.FATTR4_TYPE)), READDIR4args::decode),
        a(new entry4(3, "name".getBytes(), attrs), entry4::decode),
        a(new READDIR4resok(99, List.of(new entry4(3, "a".getBytes(), attrs), new entry4(4, "bc".getBytes(), attrs)),
            true), READDIR4resok::decode),
        a(new READDIR4resok(98, List.of(), false), READDIR4resok::decode));
  }

  private static Arguments a(XdrType v, Function<XdrReader, ? extends XdrType> decode) {
    return Arguments.of(v.getClass().getSimpleName(), v, decode);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("values")
  void roundTripsAndRejectsEveryTruncation(String name, XdrType v, Function<XdrReader, ? extends XdrType> decode) {
    new Xdr4RoundTripTest().roundTripsAndRejectsEveryTruncation(name, v, decode);
  }
}
