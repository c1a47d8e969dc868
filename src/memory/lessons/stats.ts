import type { LessonPolarity, LessonStats, OutcomeFields, StrategyStats } from "./types";

/** What a lesson says, before wording: its polarity, confidence and the strategies it names. */
export type LessonFacts = {
  taskType: string | null;
  /** The task of the group's first outcome: names the task when there is no task type. */
  exampleTask: string;
  polarity: LessonPolarity;
  confidence: number;
  stats: LessonStats;
  /** The strategy that works best (a success at least), if any. */
  works: StrategyStats | null;
  /** Strategies that only failed, most failures first. */
  avoid: StrategyStats[];
};

const MAX_ERRORS = 5;

/** Adds outcomes to stats (new stats; the input is not changed). */
export function addOutcomes(stats: LessonStats, outcomes: readonly OutcomeFields[]): LessonStats {
  const byStrategy = new Map<string | null, StrategyStats>(
    stats.strategies.map((s) => [s.strategy, { ...s, errors: s.errors.map((e) => ({ ...e })) }]),
  );
  for (const o of outcomes) {
    const key = o.strategy;
    const s = byStrategy.get(key) ?? { strategy: key, attempts: 0, successes: 0, failures: 0, errors: [] };
    s.attempts++;
    if (o.success) s.successes++;
    else {
      s.failures++;
      if (o.error) {
        const e = s.errors.find((x) => x.error === o.error);
        if (e) e.count++;
        else s.errors.push({ error: o.error, count: 1 });
      }
    }
    s.errors.sort((a, b) => b.count - a.count);
    s.errors = s.errors.slice(0, MAX_ERRORS);
    byStrategy.set(key, s);
  }
  const strategies = [...byStrategy.values()].sort(
    (a, b) => b.attempts - a.attempts || String(a.strategy).localeCompare(String(b.strategy)),
  );
  return {
    outcomes: stats.outcomes + outcomes.length,
    successes: stats.successes + outcomes.filter((o) => o.success).length,
    strategies,
  };
}

export const emptyStats = (): LessonStats => ({ outcomes: 0, successes: 0, strategies: [] });

/** Laplace's rule of succession: (k + 1) / (n + 2), so one success is 0.67, not certainty. */
const succession = (k: number, n: number) => (k + 1) / (n + 2);
const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The lesson a group's stats support. A heuristic when some strategy succeeded (the one with the
 * highest rule-of-succession success rate); else an anti-pattern over the strategies that failed.
 * Confidence is the rule of succession over the leading strategy's attempts.
 */
export function lessonFacts(taskType: string | null, exampleTask: string, stats: LessonStats): LessonFacts {
  const rate = (s: StrategyStats) => succession(s.successes, s.attempts);
  const working = stats.strategies
    .filter((s) => s.successes > 0)
    .sort((a, b) => rate(b) - rate(a) || b.successes - a.successes);
  const avoid = stats.strategies
    .filter((s) => s.successes === 0 && s.failures > 0)
    .sort((a, b) => b.failures - a.failures);
  const works = working[0] ?? null;
  const lead = works ?? avoid[0];
  const confidence = !lead
    ? 0
    : works
      ? round2(rate(works))
      : round2(succession(lead.failures, lead.attempts));
  return {
    taskType,
    exampleTask,
    polarity: works ? "heuristic" : "anti-pattern",
    confidence,
    stats,
    works,
    avoid,
  };
}

/** Importance of a lesson: 6–9 with its confidence, above the outcomes it rests on (4–6). */
export const lessonImportance = (confidence: number) => Math.min(9, 5 + Math.round(4 * confidence));

const times = (n: number) => (n === 1 ? "once" : `${n} times`);
const strategyName = (s: StrategyStats) => s.strategy ?? "the approach taken";

/**
 * What the lesson is about: the task type and an example task. The example's words make the
 * lesson relevant to a query about that task (retrieval ranks it with the outcomes it rests on).
 */
export const subject = (f: Pick<LessonFacts, "taskType" | "exampleTask">) =>
  `${f.taskType ? `${f.taskType} tasks` : "tasks"} like "${f.exampleTask}"`;

/**
 * Offline wording (`template:v1`): deterministic sentences from the facts, e.g.
 * `Lesson for deploy tasks like "Deploy billing": blue-green deploy works (1 of 1 attempts
 * succeeded). Avoid in-place restart: it failed 2 times with "port 8080 already in use".`
 */
export function templateWording(f: LessonFacts): string {
  const parts: string[] = [];
  if (f.works) {
    parts.push(
      `${strategyName(f.works)} works (${f.works.successes} of ${f.works.attempts} attempts succeeded).`,
    );
  }
  for (const s of f.avoid.slice(0, 2)) {
    const error = s.errors[0] ? ` with "${s.errors[0].error}"` : "";
    parts.push(
      `${parts.length === 0 ? "avoid" : "Avoid"} ${strategyName(s)}: it failed ${times(s.failures)}${error}.`,
    );
  }
  return `Lesson for ${subject(f)}: ${parts.join(" ")}`;
}

export const TEMPLATE_VERSION = "template:v1";
