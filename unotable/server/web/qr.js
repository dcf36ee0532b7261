// A small QR code encoder (ISO/IEC 18004), written for the share panel: byte mode, error
// correction level M, versions 1 to 10 (up to 213 bytes: any table link), the mask with the lowest
// penalty. tests/web/test_qr.py checks its matrices against a reference encoder's.

// [data codewords per block..., EC codewords per block] for level M, versions 1-10
const BLOCKS_M = [
  null,
  [[16], 10], [[28], 16], [[44], 26], [[32, 32], 18], [[43, 43], 24],
  [[27, 27, 27, 27], 16], [[31, 31, 31, 31], 18], [[38, 38, 39, 39], 22],
  [[36, 36, 36, 37, 37], 22], [[43, 43, 43, 43, 44], 26],
];
const ALIGN = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];
const MAX_VERSION = 10;

// GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
}
const mul = (a, b) => (a && b ? EXP[LOG[a] + LOG[b]] : 0);

function generator(degree) {
  let poly = [1];
  for (let i = 0; i < degree; i++) {
    const next = new Array(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j++) {
      next[j] ^= poly[j];
      next[j + 1] ^= mul(poly[j], EXP[i]);
    }
    poly = next;
  }
  return poly;
}

function ecCodewords(data, degree) {
  const gen = generator(degree);
  const rem = new Array(degree).fill(0);
  for (const byte of data) {
    const factor = byte ^ rem[0];
    rem.shift();
    rem.push(0);
    for (let i = 0; i < degree; i++) rem[i] ^= mul(gen[i + 1], factor);
  }
  return rem;
}

function utf8(text) {
  return Array.from(new TextEncoder().encode(text));
}

/** The codewords of version v (data then EC, interleaved) for the bytes. */
function codewords(bytes, v) {
  const [sizes, ec] = BLOCKS_M[v];
  const capacity = sizes.reduce((a, b) => a + b, 0);
  const bits = [];
  const put = (value, n) => {
    for (let i = n - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, v < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  put(0, Math.min(4, capacity * 8 - bits.length));
  while (bits.length % 8) bits.push(0);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; data.length < capacity; pad ^= 0xec ^ 0x11) data.push(pad);
  const blocks = [];
  let at = 0;
  for (const n of sizes) {
    const block = data.slice(at, at + n);
    at += n;
    blocks.push({ data: block, ec: ecCodewords(block, ec) });
  }
  const out = [];
  const longest = Math.max(...sizes);
  for (let i = 0; i < longest; i++) for (const b of blocks) if (i < b.data.length) out.push(b.data[i]);
  for (let i = 0; i < ec; i++) for (const b of blocks) out.push(b.ec[i]);
  return out;
}

function capacityBytes(v) {
  const total = BLOCKS_M[v][0].reduce((a, b) => a + b, 0) * 8;
  return Math.floor((total - 4 - (v < 10 ? 8 : 16)) / 8);
}

const MASKS = [
  (x, y) => (x + y) % 2 === 0,
  (x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

class Matrix {
  constructor(v) {
    this.v = v;
    this.size = v * 4 + 17;
    this.dark = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.fixed = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }

  set(x, y, dark) {
    this.dark[y][x] = dark;
    this.fixed[y][x] = true;
  }

  functionPatterns() {
    const n = this.size;
    for (let i = 0; i < n; i++) {
      this.set(6, i, i % 2 === 0);
      this.set(i, 6, i % 2 === 0);
    }
    for (const [cx, cy] of [[3, 3], [n - 4, 3], [3, n - 4]]) {
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const x = cx + dx;
          const y = cy + dy;
          if (x < 0 || y < 0 || x >= n || y >= n) continue;
          const d = Math.max(Math.abs(dx), Math.abs(dy));
          this.set(x, y, d !== 2 && d !== 4);
        }
      }
    }
    const centers = ALIGN[this.v];
    for (const cy of centers) {
      for (const cx of centers) {
        const nearFinder = (cx === 6 && cy === 6) || (cx === 6 && cy === n - 7) || (cx === n - 7 && cy === 6);
        if (nearFinder) continue;
        for (let dy = -2; dy <= 2; dy++) {
          for (let dx = -2; dx <= 2; dx++) this.set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
        }
      }
    }
    this.format(0); // reserve the format areas (written for real once the mask is known)
    this.version();
  }

  format(mask) {
    const n = this.size;
    const data = (0b00 << 3) | mask; // level M
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    const bits = ((data << 10) | rem) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) === 1;
    for (let i = 0; i <= 5; i++) this.set(8, i, bit(i));
    this.set(8, 7, bit(6));
    this.set(8, 8, bit(7));
    this.set(7, 8, bit(8));
    for (let i = 9; i < 15; i++) this.set(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i++) this.set(n - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) this.set(8, n - 15 + i, bit(i));
    this.set(8, n - 8, true);
  }

  version() {
    if (this.v < 7) return;
    let rem = this.v;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (this.v << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = this.size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      this.set(a, b, dark);
      this.set(b, a, dark);
    }
  }

  place(words) {
    const n = this.size;
    let i = 0;
    const total = words.length * 8;
    for (let right = n - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      for (let vert = 0; vert < n; vert++) {
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          const upward = ((right + 1) & 2) === 0;
          const y = upward ? n - 1 - vert : vert;
          if (this.fixed[y][x]) continue;
          this.dark[y][x] = i < total && ((words[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
          i++;
        }
      }
    }
  }

  applyMask(mask) {
    const fn = MASKS[mask];
    for (let y = 0; y < this.size; y++) {
      for (let x = 0; x < this.size; x++) if (!this.fixed[y][x] && fn(x, y)) this.dark[y][x] = !this.dark[y][x];
    }
  }

  penalty() {
    const n = this.size;
    const m = this.dark;
    let score = 0;
    const runs = (get) => {
      for (let a = 0; a < n; a++) {
        let run = 1;
        for (let b = 1; b <= n; b++) {
          if (b < n && get(a, b) === get(a, b - 1)) run++;
          else {
            if (run >= 5) score += run - 2;
            run = 1;
          }
        }
        for (let b = 0; b + 11 <= n; b++) {
          const s = [];
          for (let k = 0; k < 11; k++) s.push(get(a, b + k) ? 1 : 0);
          const str = s.join("");
          if (str === "10111010000" || str === "00001011101") score += 40;
        }
      }
    };
    runs((a, b) => m[a][b]);
    runs((a, b) => m[b][a]);
    let dark = 0;
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        if (m[y][x]) dark++;
        if (x + 1 < n && y + 1 < n && m[y][x] === m[y][x + 1] && m[y][x] === m[y + 1][x] && m[y][x] === m[y + 1][x + 1]) score += 3;
      }
    }
    score += Math.floor(Math.abs((dark * 20) / (n * n) - 10)) * 10;
    return score;
  }
}

/**
 * The QR code of text as rows of booleans (true: dark), without the quiet zone.
 * Options: version (the smallest that fits by default), mask (the lowest penalty by default).
 */
export function qrMatrix(text, { version = null, mask = null } = {}) {
  const bytes = utf8(text);
  let v = version;
  if (v === null) {
    v = 1;
    while (v <= MAX_VERSION && capacityBytes(v) < bytes.length) v++;
  }
  if (v > MAX_VERSION || capacityBytes(v) < bytes.length) throw new Error("too long for a QR code of version 10");
  const words = codewords(bytes, v);
  let best = null;
  for (let k = 0; k < 8; k++) {
    if (mask !== null && k !== mask) continue;
    const m = new Matrix(v);
    m.functionPatterns();
    m.place(words);
    m.applyMask(k);
    m.format(k);
    const score = mask === null ? m.penalty() : 0;
    if (best === null || score < best.score) best = { score, m };
  }
  return best.m.dark;
}

/** An <svg> of the QR code of text (dark modules as one path), with a 4-module quiet zone. */
export function qrSvg(text, label) {
  const rows = qrMatrix(text);
  const n = rows.length;
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `-4 -4 ${n + 8} ${n + 8}`);
  svg.setAttribute("class", "qr");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("shape-rendering", "crispEdges");
  const bg = document.createElementNS(NS, "rect");
  bg.setAttribute("x", "-4");
  bg.setAttribute("y", "-4");
  bg.setAttribute("width", String(n + 8));
  bg.setAttribute("height", String(n + 8));
  bg.setAttribute("fill", "#fff");
  const path = document.createElementNS(NS, "path");
  let d = "";
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) if (rows[y][x]) d += `M${x} ${y}h1v1h-1z`;
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(bg, path);
  return svg;
}
