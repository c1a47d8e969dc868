import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPrivateAddress } from "../../src/outgoing/address";
import { postJson } from "../../src/outgoing/post";

// One delivery's POST against a real local server: private addresses refused unless allowed (a
// literal, and a name resolved at connect time), the time bound, the capped body read.
let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/slow") return; // never answers
    if (req.url === "/big") {
      res.writeHead(200);
      res.write("x".repeat(200_000));
      return; // the body never ends
    }
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const opts = { timeoutMs: 2_000, allowPrivate: false };

describe("postJson", () => {
  it("refuses a private address literal and a name that resolves to one, unless allowed", async () => {
    expect(await postJson(`http://127.0.0.1:${port}/`, "{}", {}, opts)).toMatchObject({ status: null });
    const byName = await postJson(`http://localhost:${port}/`, "{}", {}, opts);
    expect(byName).toMatchObject({ status: null });
    expect(byName.status === null && byName.error).toContain("private");
    expect(
      await postJson(`http://localhost:${port}/`, "{}", {}, { ...opts, allowPrivate: true }),
    ).toMatchObject({
      status: 204,
    });
  });

  it("gives up after its time bound and reads at most 64 KiB of an answer", async () => {
    const allowed = { timeoutMs: 300, allowPrivate: true };
    const started = Date.now();
    const slow = await postJson(`http://127.0.0.1:${port}/slow`, "{}", {}, allowed);
    expect(slow).toMatchObject({ status: null, error: "no answer within 300 ms" });
    expect(Date.now() - started).toBeLessThan(2_000);
    const big = await postJson(`http://127.0.0.1:${port}/big`, "{}", {}, { ...allowed, timeoutMs: 5_000 });
    expect(big.status).toBe(200);
    expect(big.status !== null && big.body.length).toBeLessThanOrEqual(200_000);
    expect(big.status !== null && big.body.length).toBeGreaterThanOrEqual(64 * 1024);
  });

  it("knows which addresses are private", () => {
    for (const a of [
      "127.0.0.1",
      "10.1.2.3",
      "169.254.169.254",
      "192.168.0.1",
      "::1",
      "fe80::1",
      "::ffff:10.0.0.1",
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ["93.184.216.34", "2606:4700::1111"]) expect(isPrivateAddress(a), a).toBe(false);
  });
});
