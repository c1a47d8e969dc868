/**
 * Every input limit in one place; the API documents them and answers 400/413 naming the limit.
 */
export const LIMITS = {
  /** Characters in one memory's description. */
  descriptionChars: 8_000,
  /** Memories in one POST batch. */
  batchSize: 1_000,
  /** Memories one new memory may supersede. */
  supersedes: 100,
  /** Results of one retrieve. */
  maxK: 200,
  /**
   * Milliseconds a retrieve's statements may run (and wait for the agent's lock), by default
   * (MEMSTREAM_RETRIEVE_TIMEOUT_MS): a plan gone wrong is cancelled and answered 503
   * retrieve_timeout instead of holding a connection.
   */
  retrieveTimeoutMs: 5_000,
  /** Milliseconds a retrieve may wait for what was written before it to become searchable (`waitSearchableMs`). */
  maxWaitSearchableMs: 10_000,
  /** Vector length: pgvector's own maximum for the `vector` type. */
  maxDimensions: 16_000,
  /** Characters of an agent id. */
  agentIdChars: 200,
  /** Characters of an embedding model id. */
  modelIdChars: 200,
  /** Size of one memory's metadata object, serialized as UTF-8 JSON. */
  metadataBytes: 16_384,
  /** Nesting of a GitHub webhook payload (objects and arrays; GitHub's own nest about ten deep). */
  webhookJsonDepth: 64,
  /** Bytes of a /ui form post (the login form: a key and a path). */
  uiFormBytes: 16_384,
  /** Page size of list. */
  maxPageSize: 500,
  /** Characters of a retrieve query text. */
  queryChars: 8_000,
  /** Token budget (`maxTokens`) of one context block. */
  maxContextTokens: 200_000,
  /** Characters of one imported document. */
  documentChars: 2_000_000,
  /** Sections one document may become. */
  documentSections: 5_000,
  /** Nesting of one imported HTML document's elements, and elements (HTML tags in Markdown) in one document. */
  htmlDepth: 128,
  htmlElements: 100_000,
  /** Blockquotes and list items one Markdown line may open, nested. */
  markdownDepth: 32,
  /** Characters of a document's source (its path or URL). */
  sourceChars: 1_000,
  /** Tokens of one document section: the default and the bounds a caller may choose within. */
  sectionTokens: { default: 512, min: 64, max: 2_000 },
  /** Characters of an outcome's task; its strategy and error; its task type. */
  outcomeTaskChars: 2_000,
  outcomeFieldChars: 1_000,
  taskTypeChars: 200,
  /** Highest reflection threshold (importance is 1..10 per memory: at least 100k memories). */
  maxReflectionThreshold: 1_000_000,
  /** The longest result-cache TTL an agent or deployment may set (ms): an hour. */
  maxRetrieveCacheTtlMs: 3_600_000,
} as const;

/** Agent ids are caller-chosen, e.g. `github:acme/api` or `npc-42`. */
export const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,199}$/;
