/**
 * A dense layer for one row, y = relu?(b + Σ_k x_k·W_k·), in WebAssembly SIMD: four outputs
 * per f32x4 lane group (four groups side by side where they fit), each starting at its bias and adding x_k·W_kj for k in order, one
 * float32 multiply and one float32 add per step — the order and the rounding of tfjs's wasm
 * GEMM (XNNPACK's f32 kernels, no fused multiply-add), so the result is the same bit for bit
 * (hostPolicy.test.ts compares it with tfjs). The module is a few hundred bytes written out
 * below (no toolchain); where WebAssembly SIMD is missing, `createGemv` returns null and the
 * caller keeps the plain-JS loop.
 *
 * Exported function `gemv(x, w, b, out, fanIn, fanOut, relu)`: byte addresses in the module's
 * memory `mem`; fanOut a multiple of 4.
 */

const u32 = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
};
const section = (id: number, body: number[]): number[] => [id, ...u32(body.length), ...body];
const name = (s: string): number[] => [...u32(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];

// Locals: params 0 x, 1 w, 2 b, 3 out, 4 fanIn, 5 fanOut, 6 relu; 7 j, 8 k, 9 wrow (i32);
// 10–13 four accumulators, 14 the splat of x_k (v128).
const [X, W, B, OUT, FAN_IN, FAN_OUT, RELU, J, K, WROW, ACC, XS] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14] as const;
const get = (i: number) => [0x20, i];
const set = (i: number) => [0x21, i];
const i32 = (v: number) => [0x41, ...u32(v)];
const add = 0x6a;
const shl = 0x74;
const geU = 0x4f;
const gtU = 0x4b;
/** A memory argument: align 2^2, the byte offset given. */
const mem = (offset = 0) => [0x02, ...u32(offset)];
const simd = (op: number) => [0xfd, ...u32(op)];
const V128_LOAD = 0x00;
const V128_STORE = 0x0b;
const V128_CONST = 0x0c;
const F32X4_SPLAT = 0x13;
const F32X4_ADD = 0xe4;
const F32X4_MUL = 0xe6;
const F32X4_MAX = 0xe9;
/** base + 4·index */
const address = (base: number, index: number) => [...get(base), ...get(index), ...i32(2), shl, add];

/**
 * The loop over j, `groups` f32x4 groups of outputs at a time (accumulators ACC … ACC +
 * groups − 1), while `groups` more fit; j goes on from where the loop before left it. Each
 * output's sum runs over k in order whatever the grouping: more groups only give the
 * processor independent additions to overlap (one accumulator waits on its own previous add).
 */
function outputLoop(groups: number): number[] {
  const each = (f: (g: number) => number[]) => Array.from({ length: groups }, (_, g) => f(g)).flat();
  return [
    ...[0x02, 0x40], // block
    ...[0x03, 0x40], // loop over j
    ...get(J),
    ...i32(4 * groups),
    add,
    ...get(FAN_OUT),
    gtU,
    ...[0x0d, 1], // br_if out of the block: fewer than 4·groups outputs left
    ...each((g) => [...address(B, J), ...simd(V128_LOAD), ...mem(16 * g), ...set(ACC + g)]),
    ...address(W, J),
    ...set(WROW),
    ...i32(0),
    ...set(K),
    ...[0x02, 0x40], // block
    ...[0x03, 0x40], // loop over k, in order
    ...get(K),
    ...get(FAN_IN),
    geU,
    ...[0x0d, 1],
    ...address(X, K),
    ...[0x2a, ...mem()], // f32.load
    ...simd(F32X4_SPLAT),
    ...set(XS),
    ...each((g) => [...get(ACC + g), ...get(XS), ...get(WROW), ...simd(V128_LOAD), ...mem(16 * g), ...simd(F32X4_MUL), ...simd(F32X4_ADD), ...set(ACC + g)]),
    ...get(WROW),
    ...get(FAN_OUT),
    ...i32(2),
    shl,
    add,
    ...set(WROW),
    ...get(K),
    ...i32(1),
    add,
    ...set(K),
    ...[0x0c, 0], // br to the k loop
    0x0b,
    0x0b,
    ...get(RELU),
    ...[0x04, 0x40], // if relu: max(acc, 0)
    ...each((g) => [...get(ACC + g), ...simd(V128_CONST), ...new Array<number>(16).fill(0), ...simd(F32X4_MAX), ...set(ACC + g)]),
    0x0b,
    ...each((g) => [...address(OUT, J), ...get(ACC + g), ...simd(V128_STORE), ...mem(16 * g)]),
    ...get(J),
    ...i32(4 * groups),
    add,
    ...set(J),
    ...[0x0c, 0], // br to the j loop
    0x0b,
    0x0b,
  ];
}

const body = [
  ...[0x02, 0x03, 0x7f, 0x05, 0x7b], // locals: 3 × i32, 5 × v128 (zero: j starts at 0)
  ...outputLoop(4), // 16 outputs at a time
  ...outputLoop(1), // the last 4, 8 or 12
  0x0b, // end of function
];

const MODULE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [1, 0x60, 7, ...new Array<number>(7).fill(0x7f), 0]),
  ...section(3, [1, 0]),
  ...section(5, [1, 0x00, 1]),
  ...section(7, [2, ...name('gemv'), 0x00, 0, ...name('mem'), 0x02, 0]),
  ...section(10, [1, ...u32(body.length), ...body]),
]);

/** The parts of the WebAssembly API used here (the Node typecheck has no DOM or WebAssembly lib). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
}

/** The kernel and its memory (grown by the caller as needed). */
export interface Gemv {
  readonly memory: WasmMemory;
  readonly gemv: (x: number, w: number, b: number, out: number, fanIn: number, fanOut: number, relu: number) => void;
}

let compiled: object | null | undefined;

/** A new instance of the kernel (own memory), or null without WebAssembly SIMD. */
export function createGemv(): Gemv | null {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (wasm === undefined) return null;
  if (compiled === undefined) {
    try {
      compiled = wasm.validate(MODULE) ? new wasm.Module(MODULE) : null;
    } catch {
      compiled = null;
    }
  }
  if (compiled === null) return null;
  const instance = new wasm.Instance(compiled, {});
  return { memory: instance.exports['mem'] as WasmMemory, gemv: instance.exports['gemv'] as Gemv['gemv'] };
}
