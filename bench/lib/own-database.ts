import postgres from "postgres";

/** A database of this name on BENCH_DATABASE_URL's server (default the local one), created once; its URL. */
export async function ownDatabase(name: string): Promise<string> {
  const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  if ((await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`).length === 0)
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}
