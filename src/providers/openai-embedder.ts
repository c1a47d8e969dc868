import type OpenAI from "openai";
import { InvalidProviderAnswer } from "../lib/errors.js";
import { chunk, guardEmpty } from "./batching.js";
import { mapOpenAIError } from "./openai-client.js";
import type { Embedder } from "./types.js";

export type OpenAIEmbedderOptions = {
  client: OpenAI;
  model: string;
  /** Requested vector length (models like text-embedding-3-* can shorten). Sent to the server when set. */
  dimensions?: number;
  /** Texts per request; default 256 (OpenAI accepts up to 2048 inputs, local servers often fewer). */
  maxBatchSize?: number;
};

export const DEFAULT_OPENAI_EMBED_BATCH = 256;

/**
 * Embedder over `POST /embeddings` of an OpenAI-compatible server.
 *
 * `dimensions` is honest about what is known: the configured value when given, else 0 until
 * the first answer, after which it is the length the server returned. Callers that need the
 * length before embedding anything (e.g. to create a vector column) must configure it.
 * `modelId` is `openai:<model>` plus `@<dimensions>` when configured, so vectors of the same
 * model shortened to different lengths are never compared.
 */
export function createOpenAIEmbedder(opts: OpenAIEmbedderOptions): Embedder {
  const maxBatchSize = opts.maxBatchSize ?? DEFAULT_OPENAI_EMBED_BATCH;
  let dimensions = opts.dimensions ?? 0;

  async function embedBatch(input: string[]): Promise<number[][]> {
    const what = `embeddings (${opts.model})`;
    let res: OpenAI.CreateEmbeddingResponse;
    try {
      res = await opts.client.embeddings.create({
        model: opts.model,
        input,
        ...(opts.dimensions === undefined ? {} : { dimensions: opts.dimensions }),
        // Explicit float: the SDK otherwise asks for base64, which several compatible servers ignore or reject.
        encoding_format: "float",
      });
    } catch (err) {
      throw mapOpenAIError(err, what);
    }
    // The API documents `index` as the position in the input; order by it rather than trust array order.
    const out = new Array<number[] | undefined>(input.length).fill(undefined);
    for (const d of res.data) {
      if (!Number.isInteger(d.index) || d.index < 0 || d.index >= input.length || out[d.index]) {
        throw new InvalidProviderAnswer(
          `${what}: bad or repeated index ${d.index} for ${input.length} texts`,
        );
      }
      out[d.index] = d.embedding;
    }
    return out.map((v, i) => {
      if (v === undefined) throw new InvalidProviderAnswer(`${what}: no vector for input ${i}`);
      if (dimensions === 0) dimensions = v.length;
      if (v.length !== dimensions) {
        throw new InvalidProviderAnswer(`${what}: expected ${dimensions} dimensions, got ${v.length}`);
      }
      return v;
    });
  }

  return {
    modelId:
      opts.dimensions === undefined ? `openai:${opts.model}` : `openai:${opts.model}@${opts.dimensions}`,
    get dimensions() {
      return dimensions;
    },
    maxBatchSize,
    async embed(texts: string[]): Promise<number[][]> {
      const out: number[][] = [];
      // Sequential batches: keeps one request in flight per caller and plays well with rate limits.
      for (const batch of chunk(guardEmpty(texts), maxBatchSize)) out.push(...(await embedBatch(batch)));
      return out;
    },
  };
}
