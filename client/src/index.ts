export { type CaptureOptions, createCapture, type ExecutableTool } from "./capture.js";
export {
  type AgentStats,
  type CreatedEventSubscription,
  createMemstreamClient,
  type DeliveryQuery,
  type EventDelivery,
  type EventSubscription,
  type Feedback,
  type FeedbackRecorded,
  type ListQuery,
  type Memory,
  type MemoryPage,
  type MemstreamClient,
  type MemstreamClientOptions,
  type NewEventSubscription,
  type NewMemory,
  type NewOutcome,
  type Outcome,
  type ReflectionResult,
  type RetrieveRequest,
  type RetrieveResult,
  type ScoredMemory,
} from "./client.js";
export { type ErrorCode, type ErrorEnvelope, MemstreamError } from "./errors.js";
export type { components, paths } from "./generated/openapi.js";
export { type RetryOptions, retryingFetch } from "./retry.js";
