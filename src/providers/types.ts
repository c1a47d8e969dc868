/**
 * Side dependencies of the domain, as small interfaces. Each has a real implementation
 * (offline model or OpenAI-compatible HTTP) chosen at composition time in `src/providers/index.ts`.
 */

/** Turns texts into vectors. `modelId` is stored beside every vector: vectors of different models are never compared. */
export interface Embedder {
  /** Stable id of the model, e.g. `use-lite-512` or `openai:text-embedding-3-small@1536`. */
  readonly modelId: string;
  /** Vector length this embedder produces. */
  readonly dimensions: number;
  /** Most texts sent in one call (providers have request limits). */
  readonly maxBatchSize: number;
  /** Embeds each text; the result has one vector per input, in order. Empty text must not throw. */
  embed(texts: string[]): Promise<number[][]>;
}

export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

export type ChatUsage = { promptTokens: number; completionTokens: number };

export type ChatResult = { text: string; usage: ChatUsage };

/** An OpenAI-compatible chat model (OpenAI, Ollama, vLLM, LM Studio, or the test stub). */
export interface ChatModel {
  readonly modelId: string;
  complete(
    messages: ChatMessage[],
    options?: {
      temperature?: number;
      maxTokens?: number;
      /** The agent the call works for: a metered model (src/memory/budget/metered-chat.ts) counts it against its budget. */
      agentId?: string;
    },
  ): Promise<ChatResult>;
}

/** Scores how poignant a memory is, 1 (mundane) to 10 (extremely poignant). */
export interface ImportanceScorer {
  /** Identifies the scorer in logs and stats, e.g. `llm:gpt-4o-mini` or `offline:examples-v1`. */
  readonly id: string;
  /** True when each description is its own provider call, so scoring one at a time costs nothing extra. */
  readonly callPerDescription?: boolean;
  /** One integer 1..10 per description, in order. Throws `InvalidProviderAnswer` when the answer has no valid score. */
  score(descriptions: string[], context?: { agentId: string }): Promise<number[]>;
}

/** The clock, injectable so tests and simulations control time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
