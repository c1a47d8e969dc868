export * from "./agent-settings";
export * from "./documents";
export * from "./github-deliveries";
export * from "./github-event-keys";
export * from "./github-imports";
export * from "./memories";
export * from "./memory-embeddings";
export * from "./reflection-runs";
