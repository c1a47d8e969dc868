import { Invalid } from "../../lib/errors";

/**
 * Splits a byte stream into lines (LF or CRLF), decoding UTF-8 across chunk borders, with no more
 * than one line (at most `maxBytes`) and one chunk held at a time. Blank lines are skipped but
 * counted, so a line number is the one an editor shows.
 */
export async function* readLines(
  chunks: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
): AsyncGenerator<{ n: number; text: string }> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let partial = "";
  let n = 0;
  const tooLong = () =>
    new Invalid(`line ${n + 1}: over ${maxBytes} bytes`, {
      field: `line ${n + 1}`,
      line: n + 1,
      limit: maxBytes,
    });
  const decode = (chunk: Uint8Array | string, stream: boolean) => {
    if (typeof chunk === "string") return chunk;
    try {
      return decoder.decode(chunk, { stream });
    } catch {
      throw new Invalid(`line ${n + 1}: not UTF-8`, { field: `line ${n + 1}`, line: n + 1 });
    }
  };
  for await (const chunk of chunks) {
    partial += decode(chunk, true);
    let start = 0;
    for (let nl = partial.indexOf("\n"); nl !== -1; nl = partial.indexOf("\n", start)) {
      n++;
      let text = partial.slice(start, nl);
      if (text.endsWith("\r")) text = text.slice(0, -1);
      start = nl + 1;
      // Characters are at most the bytes: a cheap bound first, the exact count only near it.
      if (text.length * 3 > maxBytes && Buffer.byteLength(text) > maxBytes) {
        n--;
        throw tooLong();
      }
      if (text.trim() !== "") yield { n, text };
    }
    partial = partial.slice(start);
    if (partial.length > maxBytes) throw tooLong();
  }
  partial += decode(new Uint8Array(), false);
  if (partial.trim() !== "") {
    if (Buffer.byteLength(partial) > maxBytes) throw tooLong();
    yield { n: n + 1, text: partial.endsWith("\r") ? partial.slice(0, -1) : partial };
  }
}
