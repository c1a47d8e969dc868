import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A repository's content as the stub serves it (REST shapes, only the fields the import reads and a few more). */
export type StubRepo = {
  owner: string;
  name: string;
  issues: Record<string, unknown>[];
  pulls: Record<string, unknown>[];
  reviews: Record<number, Record<string, unknown>[]>;
  /** Conversation comments by issue or pull request number (`/issues/{n}/comments`). */
  comments: Record<number, Record<string, unknown>[]>;
  releases: Record<string, unknown>[];
  commits: Record<string, unknown>[];
};

/** A scripted answer for the next request(s) whose URL matches. */
export type Fault = { match: RegExp; times: number } & (
  | { kind: "status"; status: number }
  | { kind: "rate-limit"; resetInSeconds: number }
);

export type StubGithub = {
  url: string;
  /** Every request's path and query, in arrival order (failed attempts too). */
  requests: string[];
  fault(f: Fault): void;
  clearFaults(): void;
  /**
   * Holds the next request matching `match` unanswered: `arrived` resolves when it comes,
   * `release()` lets it be served (a test kills the client in between).
   */
  hold(match: RegExp): { arrived: Promise<void>; release(): void };
  close(): Promise<void>;
};

/**
 * A GitHub REST API stub on 127.0.0.1: serves one repository's lists in pages of `pageSize`
 * (whatever `per_page` asks, so small fixtures still span several pages) with `Link` headers
 * (next, last) exactly as GitHub writes them, and answers scripted faults: a status (5xx), or
 * GitHub's primary rate-limit answer (403, `x-ratelimit-remaining: 0`, `x-ratelimit-reset`).
 */
export async function startStubGithub(repo: StubRepo, opts: { pageSize: number }): Promise<StubGithub> {
  const requests: string[] = [];
  let faults: Fault[] = [];
  const holds: { match: RegExp; arrive(): void; released: Promise<void> }[] = [];
  const base = `/repos/${repo.owner}/${repo.name}`;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://stub");
    requests.push(`${url.pathname}${url.search}`);
    const held = holds.findIndex((h) => h.match.test(`${url.pathname}${url.search}`));
    if (held >= 0) {
      const [h] = holds.splice(held, 1);
      h?.arrive();
      await h?.released;
    }
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
      res.end(JSON.stringify(body));
    };
    const fault = faults.find((f) => f.times > 0 && f.match.test(`${url.pathname}${url.search}`));
    if (fault) {
      fault.times--;
      if (fault.kind === "status") return send(fault.status, { message: "Server Error" });
      const reset = Math.ceil(Date.now() / 1000) + fault.resetInSeconds;
      return send(
        403,
        { message: "API rate limit exceeded for 127.0.0.1." },
        {
          "x-ratelimit-limit": "5000",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": String(reset),
        },
      );
    }
    if (url.pathname === base) {
      return send(200, {
        id: 1,
        name: repo.name,
        full_name: `${repo.owner}/${repo.name}`,
        owner: { login: repo.owner, type: "Organization" },
        default_branch: "main",
        html_url: `https://github.com/${repo.owner}/${repo.name}`,
        pushed_at: "2026-11-01T00:00:00Z",
        updated_at: "2026-11-01T00:00:00Z",
      });
    }
    const review = url.pathname.match(new RegExp(`^${base}/pulls/(\\d+)/reviews$`));
    const comments = url.pathname.match(new RegExp(`^${base}/issues/(\\d+)/comments$`));
    const lists: Record<string, Record<string, unknown>[]> = {
      [`${base}/issues`]: repo.issues,
      [`${base}/pulls`]: repo.pulls,
      [`${base}/releases`]: repo.releases,
      [`${base}/commits`]: repo.commits,
    };
    let all = review
      ? (repo.reviews[Number(review[1])] ?? [])
      : comments
        ? (repo.comments[Number(comments[1])] ?? [])
        : lists[url.pathname];
    if (!all) return send(404, { message: "Not Found" });
    const since = url.searchParams.get("since");
    if (since && (url.pathname.endsWith("/issues") || comments)) {
      all = all.filter((i) => String(i.updated_at) >= since);
    }
    if (since && url.pathname.endsWith("/commits")) {
      all = all.filter((c) => String((c.commit as { committer: { date: string } }).committer.date) >= since);
    }
    const page = Number(url.searchParams.get("page") ?? "1");
    const last = Math.max(1, Math.ceil(all.length / opts.pageSize));
    const link = (p: number, rel: string) => {
      const u = new URL(`${stubUrl}${url.pathname}${url.search}`);
      u.searchParams.set("page", String(p));
      return `<${u.toString()}>; rel="${rel}"`;
    };
    const rels = [];
    if (page < last) rels.push(link(page + 1, "next"), link(last, "last"));
    if (page > 1) rels.push(link(1, "first"), link(page - 1, "prev"));
    send(
      200,
      all.slice((page - 1) * opts.pageSize, page * opts.pageSize),
      rels.length > 0 ? { link: rels.join(", ") } : {},
    );
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const stubUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: stubUrl,
    requests,
    fault: (f) => void faults.push({ ...f }),
    clearFaults: () => {
      faults = [];
    },
    hold(match) {
      let arrive = () => {};
      let release = () => {};
      const arrived = new Promise<void>((r) => (arrive = r));
      const released = new Promise<void>((r) => (release = r));
      holds.push({ match, arrive, released });
      return { arrived, release };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const user = (login: string) => ({ login, type: login.endsWith("[bot]") ? "Bot" : "User" });
const day = (d: number, h = 0) => new Date(Date.UTC(2025, 0, 1 + d, h)).toISOString().replace(".000Z", "Z");

/**
 * A repository with `n` of everything: issue i opened on day i (odd ones closed on day i + 1),
 * pull request i opened on day i (even ones merged, odd ones closed unmerged on day i + 1), one
 * approving review per pull request, releases (one draft), and commits on main, newest first.
 */
export function fixtureRepo(owner: string, name: string, n: number): StubRepo {
  const url = `https://github.com/${owner}/${name}`;
  const issues = Array.from({ length: n }, (_, k) => {
    const i = k + 1;
    const closed = i % 2 === 1;
    return {
      id: 1000 + i,
      number: i,
      title: `Issue number ${i}`,
      body: `Body of issue ${i}`,
      state: closed ? "closed" : "open",
      state_reason: closed ? "completed" : null,
      user: user(`reporter${i}`),
      labels: [{ name: "bug" }],
      comments: 0,
      html_url: `${url}/issues/${i}`,
      created_at: day(i),
      updated_at: day(i + 1),
      closed_at: closed ? day(i + 1) : null,
    };
  });
  const pulls = Array.from({ length: n }, (_, k) => {
    const i = 100 + k + 1;
    const merged = i % 2 === 0;
    return {
      id: 2000 + i,
      number: i,
      title: `Pull request ${i}`,
      state: "closed",
      draft: false,
      user: user(`author${i}`),
      html_url: `${url}/pull/${i}`,
      base: { ref: "main" },
      head: { ref: `feature-${i}` },
      created_at: day(k + 1, 2),
      updated_at: day(k + 2, 3),
      closed_at: day(k + 2, 3),
      merged_at: merged ? day(k + 2, 3) : null,
    };
  });
  const reviews = Object.fromEntries(
    pulls.map((p) => [
      p.number,
      [
        {
          id: 3000 + p.number,
          state: "APPROVED",
          body: "Looks good",
          user: user("reviewer"),
          submitted_at: day(Number(p.number) - 99, 5),
          html_url: `${p.html_url}#review`,
        },
        { id: 4000 + p.number, state: "PENDING", body: "", user: user("drafter"), html_url: p.html_url },
      ],
    ]),
  );
  const releases = [
    {
      id: 5001,
      tag_name: "v1.0.0",
      name: "First",
      body: "Notes",
      draft: false,
      prerelease: false,
      author: user("releaser"),
      published_at: day(3, 12),
      html_url: `${url}/releases/v1.0.0`,
    },
    {
      id: 5002,
      tag_name: "v1.1.0-rc1",
      name: null,
      body: "",
      draft: false,
      prerelease: true,
      author: user("releaser"),
      published_at: day(5, 12),
      html_url: `${url}/releases/rc`,
    },
    {
      id: 5003,
      tag_name: "v2.0.0",
      name: "Draft",
      body: "",
      draft: true,
      prerelease: false,
      author: user("releaser"),
      published_at: null,
      html_url: `${url}/releases/draft`,
    },
  ];
  const commits = Array.from({ length: n }, (_, k) => {
    const i = n - k;
    const sha = `${i}`.padStart(4, "0").repeat(10);
    return {
      sha,
      html_url: `${url}/commit/${sha}`,
      author: user(`dev${i}`),
      commit: {
        message: `Commit message ${i}\n\nDetails`,
        author: { name: `Dev ${i}`, email: `dev${i}@example.com`, date: day(i, 6) },
        committer: { date: day(i, 6) },
      },
    };
  });
  return { owner, name, issues, pulls, reviews, comments: {}, releases, commits };
}
