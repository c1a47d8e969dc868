import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, lower case

/** A prefixed random id, e.g. `mem_3n8x0q...` (20 chars of base32 = 100 bits). */
export function newId(prefix: "mem" | "ref" | "req" | "imp" | "ret" | "era" | "sub" | "evd"): string {
  const bytes = randomBytes(20);
  let out = "";
  for (const b of bytes) out += ALPHABET[b & 31];
  return `${prefix}_${out}`;
}
