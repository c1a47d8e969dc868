import { main } from "./main";

/** Runs `memstream <argv>` as this process: its streams and environment, its exit code. */
export async function runAsProcess(argv: string[]): Promise<void> {
  process.exitCode = await main(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
  });
}
