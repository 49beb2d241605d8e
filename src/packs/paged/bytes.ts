// A growable little-endian byte writer and a cursor reader, with zigzag varints for delta-coded coordinates.

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

export function encodeUtf8(s: string): Uint8Array {
  return utf8.encode(s);
}

export function decodeUtf8(b: Uint8Array): string {
  return utf8Decoder.decode(b);
}

export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(initial = 4096) {
    this.buf = new Uint8Array(initial);
    this.view = new DataView(this.buf.buffer);
  }

  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.length++] = v;
  }

  u32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  varint(v: number): void {
    // Values stay below 2^31 here, so 32-bit shifts are exact.
    this.ensure(5);
    let x = v >>> 0;
    while (x >= 0x80) {
      this.buf[this.length++] = (x & 0x7f) | 0x80;
      x >>>= 7;
    }
    this.buf[this.length++] = x;
  }

  zigzag(v: number): void {
    this.varint((v << 1) ^ (v >> 31));
  }

  /** Zero bytes up to the next multiple of `n`, so the next section's typed arrays align. */
  align(n: number): void {
    const pad = (n - (this.length % n)) % n;
    this.ensure(pad);
    this.buf.fill(0, this.length, this.length + pad);
    this.length += pad;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

export class ByteReader {
  pos: number;
  private readonly buf: Uint8Array;
  private readonly end: number;

  constructor(buf: Uint8Array, start = 0, end = buf.length) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  varint(): number {
    let x = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new RangeError("varint runs past the end of its section");
      const b = this.buf[this.pos++] as number;
      x |= (b & 0x7f) << shift;
      if (b < 0x80) return x >>> 0;
      shift += 7;
      if (shift > 28) throw new RangeError("varint longer than 5 bytes");
    }
  }

  zigzag(): number {
    const v = this.varint();
    return (v >>> 1) ^ -(v & 1);
  }
}
