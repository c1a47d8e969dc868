/** Polls `probe` every `everyMs` until it gives a value (not null or undefined); throws after `ms`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined>,
  ms = 60_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
