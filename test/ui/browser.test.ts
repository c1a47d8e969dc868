import { mkdirSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemories } from "../../src/memory/create-memories";
import { DEFAULT_PRESET, PRESETS } from "../../src/memory/retrieve/presets";
import { RELEVANCE_KINDS } from "../../src/memory/retrieve/ranking/relevance/kinds";
import type { Memory } from "../../src/memory/types";
import { uniq } from "../support/env";
import { listen } from "../support/listen";
import { stubEmbedding } from "../support/stub-openai";
import { startTestSystem, type TestSystem } from "../support/system";

// The stream browser in a real browser: Debian's chromium (installed by `npm run test:browser`, see
// scripts/install-chromium.sh) driven by playwright-core against the real server on a port.
const CHROMIUM = process.env.MEMSTREAM_CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = "test-results/ui";
const tenant = uniq("ui");
const agentId = `${tenant}:isabella`;

let t: TestSystem;
let server: Awaited<ReturnType<typeof listen>>;
let browser: Browser;
let page: Page;
let seeded: Memory[];
let reflection: Memory;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  t = await startTestSystem({ env: { MEMSTREAM_API_KEYS: `ui-key=${tenant}:,other-key=someone-else:` } });
  server = await listen(t.app.fetch);
  // Vectors of the configured (stub) model, so relevance to a query is real cosine similarity.
  const mem = (description: string, createdAt: string, importance: number) => ({
    description,
    createdAt,
    importance,
    embedding: stubEmbedding(description),
  });
  seeded = await createMemories(t.system.services, agentId, [
    mem("Isabella is planning a Valentine's Day party at Hobbs Cafe", "2026-02-10T09:00:00Z", 7),
    mem("Maria said she will bring her friend Klaus to the party", "2026-02-11T09:00:00Z", 5),
    mem("The espresso machine at Hobbs Cafe is broken", "2026-02-12T09:00:00Z", 3),
    ...Array.from({ length: 55 }, (_, i) =>
      mem(`Isabella wiped table ${i + 1}`, `2026-02-01T${String(i % 24).padStart(2, "0")}:00:00Z`, 1),
    ),
  ]);
  [reflection] = (await createMemories(t.system.services, agentId, [
    {
      description: "Isabella's party is becoming a community event",
      kind: "reflection",
      createdAt: "2026-02-12T18:00:00Z",
      importance: 8,
      citations: [seeded[0]?.id ?? "", seeded[1]?.id ?? ""],
      embedding: stubEmbedding("Isabella's party is becoming a community event"),
    },
  ])) as [Memory];
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await t?.close();
});

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

describe("stream browser (/ui) in chromium", () => {
  it("asks for the API key once, then lists the agents the key may see", async () => {
    await page.goto(`${server.url}/ui`);
    expect(new URL(page.url()).pathname).toBe("/ui/login");
    await page.fill("input[name=key]", "wrong");
    await page.click("button[type=submit]");
    await expect(page.locator("[role=alert]").textContent()).resolves.toContain("unknown API key");
    await page.fill("input[name=key]", "ui-key");
    await page.click("button[type=submit]");
    expect(new URL(page.url()).pathname).toBe("/ui");
    const agents = await page.locator("a.agent").allTextContents();
    expect(agents).toEqual([agentId]);
    await shot("1-agents");
  });

  it("pages through an agent's memories with kind, importance, status and citations as links", async () => {
    await page.click(`a.agent:text("${agentId}")`);
    await expect(page.locator("#stats").textContent()).resolves.toContain("59 memories");
    const rows = page.locator("tr.memory");
    expect(await rows.count()).toBe(50);
    // Newest first: the reflection, then the espresso machine.
    expect(await rows.first().getAttribute("data-id")).toBe(reflection.id);
    expect(await rows.first().locator(".kind").textContent()).toBe("reflection");
    expect(await rows.first().textContent()).toContain("★ 8");
    expect(await rows.first().textContent()).toContain("imp:ready");
    const citations = rows.first().locator("a.citation");
    expect(await citations.allTextContents()).toEqual(reflection.citations);
    await shot("2-memories");

    await page.click("#next-page");
    expect(await page.locator("tr.memory").count()).toBe(9);
    expect(await page.locator("#next-page").count()).toBe(0);

    await page.goto(`${server.url}/ui/agents/${encodeURIComponent(agentId)}`);
    await page.selectOption("select[name=kind]", "reflection");
    await page.click("form.inline button[type=submit]");
    expect(await page.locator("tr.memory").count()).toBe(1);
  });

  it("shows a reflection with the memories it cites, and follows a citation link", async () => {
    await page.goto(`${server.url}/ui/agents/${encodeURIComponent(agentId)}`);
    await page.click(`tr.memory[data-id="${reflection.id}"] td a[href$="${reflection.id}"]`);
    await expect(page.locator("#description").textContent()).resolves.toContain("community event");
    const cited = await page
      .locator("#cited tr.memory")
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-id")));
    expect(cited).toEqual(reflection.citations);
    await shot("3-reflection");
    await page.click(`#cited a[href$="${seeded[1]?.id}"]`);
    await expect(page.locator("#description").textContent()).resolves.toContain("Klaus");
  });

  it("runs a retrieve with query, weights and now, and draws each component as a bar with the score", async () => {
    await page.goto(`${server.url}/ui/agents/${encodeURIComponent(agentId)}/retrieve`);
    expect(await page.locator("tr.result").count()).toBe(0);
    // An untouched form is the service default ranking, and every relevance source is offered.
    const preset = PRESETS[DEFAULT_PRESET];
    expect(await page.locator("select[name=mode]").inputValue()).toBe(preset.relevance);
    expect(
      await page
        .locator("select[name=mode] option")
        .evaluateAll((os) => os.map((o) => o.getAttribute("value"))),
    ).toEqual([...RELEVANCE_KINDS]);
    for (const c of ["recency", "importance", "relevance"] as const) {
      expect(Number(await page.locator(`input[name=${c}]`).inputValue())).toBe(preset.weights[c]);
    }
    await page.fill("input[name=query]", "Who is coming to the party?");
    await page.fill("input[name=k]", "5");
    await page.fill("input[name=relevance]", "2");
    await page.fill("input[name=now]", "2026-02-13T09:00:00Z");
    await page.click("form.inline button[type=submit]");
    const results = page.locator("tr.result");
    expect(await results.count()).toBe(5);
    await shot("4-retrieve");

    // The page shows what the API ranks for the same request (the browser touched nothing).
    const res = await t.call(
      "POST",
      `/v1/agents/${encodeURIComponent(agentId)}/retrieve`,
      {
        query: "Who is coming to the party?",
        k: 5,
        // What the form sends: every weight (from the service default preset, relevance changed
        // to 2) and the relevance it selects (the default preset's).
        weights: { ...PRESETS[DEFAULT_PRESET].weights, relevance: 2 },
        relevance: PRESETS[DEFAULT_PRESET].relevance,
        now: "2026-02-13T09:00:00Z",
        touch: false,
      },
      { authorization: "Bearer ui-key" },
    );
    const api = (await res.json()) as {
      memories: { id: string; score: number; scores: Record<string, number> }[];
    };
    expect(await results.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-id")))).toEqual(
      api.memories.map((m) => m.id),
    );
    for (const [i, m] of api.memories.entries()) {
      const row = results.nth(i);
      expect(Number(await row.locator(".score").textContent())).toBeCloseTo(m.score, 3);
      for (const component of ["recency", "importance", "relevance"]) {
        const bar = row.locator(`.bar-${component}`);
        expect(Number(await bar.getAttribute("data-value"))).toBeCloseTo(m.scores[component] ?? -1, 3);
        // The drawn bar's width is the scaled value of its track.
        const [inner, track] = await Promise.all([bar.locator("span").boundingBox(), bar.boundingBox()]);
        expect((inner?.width ?? 0) / (track?.width ?? 1)).toBeCloseTo(m.scores[component] ?? -1, 1);
      }
    }
  });

  it("keeps a key inside its agent prefix and explains bad input on the page", async () => {
    const outside = await page.goto(`${server.url}/ui/agents/someone-else`);
    expect(outside?.status()).toBe(404);
    await expect(page.locator("[role=alert]").textContent()).resolves.toContain("not_found");
    await page.goto(`${server.url}/ui/agents/${encodeURIComponent(agentId)}/retrieve?mode=lexical&query=`);
    await expect(page.locator("[role=alert]").textContent()).resolves.toContain("invalid_request");
    await page.goto(`${server.url}/ui/agents/${encodeURIComponent(agentId)}/retrieve?now=yesterday`);
    await expect(page.locator("[role=alert]").textContent()).resolves.toContain("now");
    await shot("5-error");
    await page.click("header button[type=submit]");
    expect(new URL(page.url()).pathname).toBe("/ui/login");
    await page.goto(`${server.url}/ui`);
    expect(new URL(page.url()).pathname).toBe("/ui/login");
  });
});
