package io.ossgw.fuse;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@link NativeMemory}'s views read and write the memory a bare pointer (a zero-length segment, as an FFM upcall
 * receives it) points at, as {@code reinterpret} did, with the sizes given and nothing beyond them.
 */
class NativeMemoryTest {

  @Test
  void aViewByAddressSeesAndChangesTheSameBytes() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment mem = arena.allocate(64);
      mem.set(JAVA_LONG, 16, 0x1122334455667788L);
      MemorySegment pointer = MemorySegment.ofAddress(mem.address()); // what a callback gets: 0 bytes long

      MemorySegment view = NativeMemory.at(pointer, 32);
      assertThat(view.byteSize()).isEqualTo(32);
      assertThat(view.get(JAVA_LONG, 16)).isEqualTo(0x1122334455667788L);
      view.set(JAVA_LONG, 24, 42L);
      assertThat(mem.get(JAVA_LONG, 24)).isEqualTo(42L);
      assertThatThrownBy(() -> view.get(JAVA_LONG, 32)).isInstanceOf(IndexOutOfBoundsException.class);
    }
  }

  @Test
  void aBufferCoversExactlyTheRequestedBytes() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment mem = arena.allocate(4096);
      mem.asSlice(100, 3).copyFrom(MemorySegment.ofArray(new byte[] {7, 8, 9}));

      ByteBuffer b = NativeMemory.buffer(mem.address() + 100, 3);
      assertThat(b.isDirect()).isTrue();
      assertThat(b.remaining()).isEqualTo(3);
      assertThat(new byte[] {b.get(0), b.get(1), b.get(2)}).containsExactly(7, 8, 9);
      b.put(1, (byte) 99);
      assertThat(mem.get(JAVA_BYTE, 101)).isEqualTo((byte) 99);
    }
  }

  @Test
  void cStringsReadUpToTheirNul() {
    try (Arena arena = Arena.ofConfined()) {
      byte[] name = "/dir/f\u00e9".getBytes(StandardCharsets.UTF_8);
      MemorySegment mem = arena.allocate(name.length + 8);
      mem.fill((byte) 'x'); // bytes after the NUL must not be read
      mem.asSlice(0, name.length).copyFrom(MemorySegment.ofArray(name));
      mem.set(JAVA_BYTE, name.length, (byte) 0);
      MemorySegment pointer = MemorySegment.ofAddress(mem.address());

      assertThat(NativeMemory.string(pointer)).isEqualTo("/dir/f\u00e9");
      assertThat(NativeMemory.bytes(pointer)).containsExactly(name);

      MemorySegment invalid = arena.allocate(3);
      invalid.set(JAVA_BYTE, 0, (byte) 0xff); // not UTF-8: bytes() keeps it, string() cannot
      invalid.set(JAVA_BYTE, 1, (byte) 'a');
      invalid.set(JAVA_BYTE, 2, (byte) 0);
      assertThat(NativeMemory.bytes(MemorySegment.ofAddress(invalid.address()))).containsExactly((byte) 0xff, 'a');
      assertThat(NativeMemory.bytes(MemorySegment.ofAddress(mem.address() + name.length))).isEmpty();
    }
  }
}
