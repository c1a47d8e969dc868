import type { Logger } from "../lib/logger.js";
import { withEmbeddingCache } from "./embedding-cache.js";
import type { ImportanceExamples } from "./importance/examples.js";
import { createLlmImportanceScorer } from "./importance/llm-scorer.js";
import { createOfflineImportanceScorer } from "./importance/offline-scorer.js";
import { createOfflineEmbedder } from "./offline-embedder.js";
import { createOpenAIChat } from "./openai-chat.js";
import { createOpenAIClient, type OpenAIClientOptions } from "./openai-client.js";
import { createOpenAIEmbedder } from "./openai-embedder.js";
import type { ChatModel, Embedder, ImportanceScorer } from "./types.js";

export type { ImportanceExamples } from "./importance/examples.js";
export type { ChatModel, Clock, Embedder, ImportanceScorer } from "./types.js";

export type ProvidersConfig = {
  /** The OpenAI-compatible server; needed when the embedding provider is "openai" or `llm` is set. */
  openai?: OpenAIClientOptions;
  embedding: {
    provider: "offline" | "openai";
    model?: string;
    dimensions?: number;
    batchSize?: number;
    /** Worker threads of the offline model (offline-embedder.ts); 0 or absent: the caller's thread. */
    threads?: number;
    /** Nice value of the offline model's batch threads (offline-embedder.ts); absent: its default. */
    batchNice?: number;
  };
  /** Where a provider tells what it could not set up but works without (debug lines). */
  logger?: Pick<Logger, "debug">;
  /** Chat model for importance and reflection; without it importance is offline and reflection is off. */
  llm?: { model: string };
  importanceExamples?: ImportanceExamples;
  /** Wraps the chat model before anything uses it (the LLM budget's meter, src/memory/budget). */
  meter?: (chat: ChatModel) => ChatModel;
};

export type Providers = {
  embedder: Embedder;
  importance: ImportanceScorer;
  chat: ChatModel | null;
  /** Starts what the providers run and loads the offline model in it, so the first query does not wait. */
  warm(): Promise<void>;
  /** Ends what the providers run (the offline model's threads). */
  close(): Promise<void>;
};

/** Builds the embedder, importance scorer and chat model the configuration asks for. */
export async function createProviders(cfg: ProvidersConfig): Promise<Providers> {
  const needsClient = cfg.embedding.provider === "openai" || cfg.llm !== undefined;
  if (needsClient && !cfg.openai) {
    throw new Error("providers: `openai` (base URL) is required for OpenAI embeddings or an LLM");
  }
  // One client for both uses, so they share its connection pool and retry settings.
  const client = needsClient && cfg.openai ? createOpenAIClient(cfg.openai) : null;

  let embedder: Embedder;
  let close = async () => {};
  let warm = async () => {};
  if (cfg.embedding.provider === "openai") {
    if (!client || !cfg.embedding.model)
      throw new Error("providers: OpenAI embeddings need `embedding.model`");
    embedder = createOpenAIEmbedder({
      client,
      model: cfg.embedding.model,
      ...(cfg.embedding.dimensions === undefined ? {} : { dimensions: cfg.embedding.dimensions }),
      ...(cfg.embedding.batchSize === undefined ? {} : { maxBatchSize: cfg.embedding.batchSize }),
    });
  } else {
    // Cached: the embedding job and the offline importance scorer embed the same new texts.
    const offline = await createOfflineEmbedder({
      threads: cfg.embedding.threads ?? 0,
      batchNice: cfg.embedding.batchNice,
      logger: cfg.logger,
    });
    embedder = withEmbeddingCache(offline);
    close = () => offline.close();
    warm = () => offline.warm();
  }

  const raw = client && cfg.llm ? createOpenAIChat({ client, model: cfg.llm.model }) : null;
  const chat = raw && cfg.meter ? cfg.meter(raw) : raw;
  const examples = cfg.importanceExamples;
  const importance = chat
    ? createLlmImportanceScorer({ chat, ...(examples ? { examples } : {}) })
    : createOfflineImportanceScorer({ embedder, ...(examples ? { examples } : {}) });
  return { embedder, importance, chat, warm, close };
}
