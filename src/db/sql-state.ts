/** The code of a database or driver error (a SQLSTATE, or postgres-js' own), directly or as the cause drizzle wraps it in. */
export function sqlState(err: unknown): string | undefined {
  return (err as { code?: string })?.code ?? (err as { cause?: { code?: string } })?.cause?.code;
}
