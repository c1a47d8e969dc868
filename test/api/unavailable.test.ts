import { describe, expect, it } from "vitest";
import { isUnavailable } from "../../src/api/errors";

// What answers 503 `unavailable` (retry later) rather than 500: the database out of reach, including
// a Citus worker lost behind the coordinator (test/cluster-drills/lose-node.test.ts drives it for real).
const pg = (code: string, message: string) => Object.assign(new Error(message), { code });
const wrapped = (cause: Error) => Object.assign(new Error("Failed query: INSERT …"), { cause });

describe("isUnavailable", () => {
  it("is true for a connection refused, a connection-exception SQLSTATE and a Citus worker lost mid-transaction", () => {
    expect(isUnavailable(pg("ECONNREFUSED", "connect ECONNREFUSED"))).toBe(true);
    expect(isUnavailable(wrapped(pg("08006", "connection to the remote node postgres@h:1 failed")))).toBe(
      true,
    );
    expect(isUnavailable(wrapped(pg("XX000", "failure on connection marked as essential: h:1")))).toBe(true);
    expect(
      isUnavailable(
        pg("XX000", "connection to the remote node postgres@h:1 failed with the following error"),
      ),
    ).toBe(true);
  });

  it("is false for other internal errors and for errors of the request", () => {
    expect(isUnavailable(wrapped(pg("XX000", "could not find named tuplestore")))).toBe(false);
    expect(isUnavailable(wrapped(pg("23505", "duplicate key value")))).toBe(false);
    expect(isUnavailable(new Error("boom"))).toBe(false);
  });
});
