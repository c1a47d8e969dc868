/**
 * Token counting with a byte-pair merge that stays fast on long pieces.
 *
 * Why: js-tiktoken's merge rescans every adjacent pair after each merge, building a string key
 * per pair, so one piece of n bytes costs ~n² key builds. A piece is what the encoding's regex
 * cuts out, and an unbroken run of letters or of symbols is ONE piece: 8,000 letters with no
 * space took 21 s, and a document of `[` runs minutes. Here the candidate merges sit
 * in a min-heap (rank, then position: the same leftmost-lowest choice js-tiktoken makes, so the
 * counts are identical, test/memory/tokens.test.ts holds it) and each merge only re-ranks its two
 * neighbours: O(n log n) per piece, and the key of a pair is at most the longest token (~128 bytes).
 */

/** What counting needs of a js-tiktoken encoder (its internal rank map and split pattern). */
export type Ranks = { rankMap: Map<string, number>; patStr: string };

const encoder = new TextEncoder();

// Counts of long pieces seen lately, per encoding. The splitter counts the same text several times
// while it looks for a section's end, and hostile text repeats its runs ("#" × 100 after the runs
// are broken): both are then looked up, not merged again. Bounded; cleared when full.
const CACHE_PIECE = 16;
const CACHE_SIZE = 4096;
const caches = new WeakMap<Ranks, Map<string, number>>();

/** The number of tokens `text` encodes to (special tokens counted as plain text). */
export function countWith(ranks: Ranks, pattern: RegExp, text: string): number {
  let cache = caches.get(ranks);
  if (!cache) {
    cache = new Map();
    caches.set(ranks, cache);
  }
  let count = 0;
  pattern.lastIndex = 0;
  for (const match of text.matchAll(pattern)) {
    const word = match[0];
    const known = word.length >= CACHE_PIECE ? cache.get(word) : undefined;
    if (known !== undefined) {
      count += known;
      continue;
    }
    const piece = encoder.encode(word);
    const n = ranks.rankMap.has(keyOf(piece, 0, piece.length)) ? 1 : mergedParts(piece, ranks.rankMap);
    if (word.length >= CACHE_PIECE) {
      if (cache.size >= CACHE_SIZE) cache.clear();
      cache.set(word, n);
    }
    count += n;
  }
  return count;
}

const DECIMAL = Array.from({ length: 256 }, (_, i) => String(i));

/** The rank map's key of `bytes[start, end)`: the bytes in decimal joined by commas (as js-tiktoken's). */
function keyOf(bytes: Uint8Array, start: number, end: number): string {
  // A typed array's own join is several times slower than this concatenation.
  let key = DECIMAL[bytes[start] as number] as string;
  for (let i = start + 1; i < end; i++) key += `,${DECIMAL[bytes[i] as number]}`;
  return key;
}

/** Parts left when `bytes` is merged pair by pair, lowest rank first, leftmost on ties. */
export function mergedParts(bytes: Uint8Array, ranks: Map<string, number>): number {
  const n = bytes.length;
  if (n <= 1) return n;
  // Parts as a linked list of start offsets; a part ends where the next one starts.
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  // The rank each part currently has for merging with its right neighbour (-1: none), so heap
  // entries that no longer hold can be recognised and dropped when they surface.
  const rankAt = new Float64Array(n).fill(-1);
  const heap = new MinHeap();
  const rankOf = (start: number): number => {
    const mid = next[start] as number;
    if (mid >= n) return -1;
    const end = next[mid] as number;
    return ranks.get(keyOf(bytes, start, end)) ?? -1;
  };
  for (let i = 0; i < n - 1; i++) {
    const r = rankOf(i);
    rankAt[i] = r;
    if (r >= 0) heap.push(r, i);
  }
  let parts = n;
  while (heap.size > 0) {
    const [rank, start] = heap.pop();
    if (rankAt[start] !== rank) continue; // stale: the part changed since
    // Merge `start` with its right neighbour.
    const gone = next[start] as number;
    const after = next[gone] as number;
    next[start] = after;
    if (after < n) prev[after] = start;
    rankAt[gone] = -1;
    parts--;
    const r = rankOf(start);
    rankAt[start] = r;
    if (r >= 0) heap.push(r, start);
    const left = prev[start] as number;
    if (left >= 0) {
      const l = rankOf(left);
      rankAt[left] = l;
      if (l >= 0) heap.push(l, left);
    }
  }
  return parts;
}

/** A binary min-heap of (rank, position) pairs ordered by rank, then position. */
class MinHeap {
  private ranks: number[] = [];
  private positions: number[] = [];

  get size(): number {
    return this.ranks.length;
  }

  push(rank: number, position: number): void {
    const { ranks, positions } = this;
    let i = ranks.length;
    ranks.push(rank);
    positions.push(position);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): [number, number] {
    const { ranks, positions } = this;
    const top: [number, number] = [ranks[0] as number, positions[0] as number];
    const lastRank = ranks.pop() as number;
    const lastPosition = positions.pop() as number;
    if (ranks.length > 0) {
      ranks[0] = lastRank;
      positions[0] = lastPosition;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let min = i;
        if (l < ranks.length && this.less(l, min)) min = l;
        if (r < ranks.length && this.less(r, min)) min = r;
        if (min === i) break;
        this.swap(i, min);
        i = min;
      }
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    const ra = this.ranks[a] as number;
    const rb = this.ranks[b] as number;
    return ra < rb || (ra === rb && (this.positions[a] as number) < (this.positions[b] as number));
  }

  private swap(a: number, b: number): void {
    const { ranks, positions } = this;
    [ranks[a], ranks[b]] = [ranks[b] as number, ranks[a] as number];
    [positions[a], positions[b]] = [positions[b] as number, positions[a] as number];
  }
}
