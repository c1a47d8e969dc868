/** A one-line progress bar for the commands (stderr, redrawn in place): `label [####....] 12/40 rest`. */
export function progressBar(stream: NodeJS.WritableStream = process.stderr) {
  return {
    draw(label: string, done: number, total: number | null, rest = "") {
      const width = 30;
      const frac = total === null ? 0 : total === 0 ? 1 : Math.min(1, done / total);
      const bar =
        total === null ? "?".repeat(width) : "#".repeat(Math.round(frac * width)).padEnd(width, ".");
      stream.write(`\r${label} [${bar}] ${done}/${total ?? "?"} ${rest}`.padEnd(100));
    },
    /** Ends the bar's line so the next output starts on its own. */
    end() {
      stream.write("\n");
    },
  };
}
