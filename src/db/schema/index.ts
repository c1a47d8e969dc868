export * from "./agent-settings";
export * from "./documents";
export * from "./github-deliveries";
export * from "./memories";
export * from "./memory-embeddings";
export * from "./reflection-runs";
