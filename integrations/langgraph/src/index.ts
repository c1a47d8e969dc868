export { agentIdOf, registryAgentOf } from "./namespaces.js";
export { MemstreamStore, type MemstreamStoreOptions } from "./store.js";
