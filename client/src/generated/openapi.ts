// Generated from memstream's /openapi.json by `npm run client:generate` (openapi-typescript). Do not edit.
// test/client/types-fresh.test.ts fails when this file no longer matches the server's document.
export interface paths {
    "/v1/agents/{agentId}/memories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List memories, newest first (cursor-paginated)
         * @description Lists the agent's memories newest first, with optional filters (kind, time range, metadata). Pass the answer's `nextCursor` back as `cursor` for the next page; `null` means there is none. Nothing is ranked or touched: use `retrieve` to ask what matters. With `asOf`, the stream as it stood then (memories deleted since are gone for good).
         */
        get: operations["listMemories"];
        put?: never;
        /**
         * Store one memory or a batch
         * @description Answers at once; importance and embedding not supplied are computed asynchronously (status `pending`). A batch is stored all or nothing.
         */
        post: operations["createMemories"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/memories/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one memory
         * @description One memory by id, with its enrichment status (`importance`, `embedding`: pending, ready or failed) and, for a reflection, the ids it cites. Reading it does not change its last-access time.
         */
        get: operations["getMemory"];
        put?: never;
        post?: never;
        /**
         * Delete a memory (for good: queued enrichment never brings it back)
         * @description Deletes the memory and its vectors in one transaction, and in the same transaction the reflections and lessons derived from it: every reflection or lesson citing it, then whatever cites those (docs/adr/0034). A job already queued for any of them finds no row and does nothing, so nothing comes back. Answers the memory's kind and the derived memories deleted per kind.
         */
        delete: operations["deleteMemory"];
        options?: never;
        head?: never;
        /**
         * Update a memory
         * @description A changed description makes importance and embedding pending again (unless supplied in the same patch).
         */
        patch: operations["updateMemory"];
        trace?: never;
    };
    "/v1/agents/{agentId}/memories/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A memory's earlier versions, newest first (cursor-paginated)
         * @description Each `PATCH` that changed the memory's description, importance or metadata kept the values it replaced, as a revision: these, newest first. A PATCH that changed none of them kept nothing. Pass `nextCursor` back as `cursor` for the next page; `null` means there is none. Revisions are deleted with the memory.
         */
        get: operations["getMemoryHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/memories/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete memories by ids or by filter, or count them (dryRun)
         * @description Deletes up to 1000 memories by id, or every memory matching a filter (kinds, metadata containment, a createdAt range, metadata.source), oldest first, in transactions of 500, at most 10000 per request (`more`: send it again). Each goes the way `DELETE /memories/{id}` goes: its vectors, and the reflections and lessons derived from it, in the same transaction; the memories it had superseded are current again; queued enrichment writes nothing. A filter must name a condition (to delete everything, erase the agent). `dryRun` counts what matches and deletes nothing.
         */
        post: operations["deleteMemories"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Erase an agent's whole stream (memories, vectors, reflections)
         * @description Deletes every memory of the agent (observations, reflections, plans, outcomes, lessons, document sections), their vectors and the agent's settings and run history; answers how many memories were deleted and the id of the erasure's receipt (GET /v1/agents/{agentId}/erasures/{id}: counts per table and kind, the epoch, the pending work cancelled; no content; kept after the data is gone). It cannot be undone.
         */
        delete: operations["eraseAgent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/erasures/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The receipt of an agent's erasure (counts, no content)
         * @description What `DELETE /v1/agents/{agentId}` removed, by the `erasureId` it answered (as `id`): when, the epoch it began, rows removed per table and the pending work it cancelled. Counts only, never content; kept after the data is gone (docs/adr/0034).
         */
        get: operations["getErasureReceipt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Counts by kind and enrichment state, the time span, and today's LLM spend
         * @description How many memories the agent has by kind and by enrichment state (importance and embedding pending, ready or failed), the creation times of the oldest and newest, and today's LLM spend against its daily budget (`llmBudget`). An agent with no memories answers zeros, not 404.
         */
        get: operations["getAgentStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/retrieve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rank memories by recency, importance and relevance (Generative Agents)
         * @description score = w_r·recency + w_i·importance + w_v·relevance, each min-max scaled to [0,1] over the candidate set (the agent's memories passing `kinds` and `filters`). recency = decay^(recencyUnits since last access, ≥ 0), floored at e^-600; importance = the 1–10 score; relevance = cosine similarity to the query embedding (relevance `vector`, the paper's). With relevance `lexical`, relevance = Okapi BM25 (k1 1.2, b 0.75) of the query's English lexemes (stemmed, stop words dropped, any word matches) with idf over the candidate set; a memory sharing no word scores 0. With `hybrid`, relevance = α·cosine' + (1 − α)·bm25' (α = vectorShare, 0.6 unless a preset or the request sets it), each min-max scaled over the candidate set first (cosine' = 0 without a vector; equal across candidates = 0.5). lexical and hybrid need `query` (400 otherwise) and always rank exactly (mode fast → 400). A component equal across all candidates scales to 0.5. Unscored importance counts as 0.5 (neutral); a memory with no vector of the query's model gets relevance 0 (lowest). Without query, relevance is 0 for all. With touch (default), returned memories get lastAccessedAt = max(lastAccessedAt, now) in the same transaction. With maxTokens or format, the answer also has `context`: the returned memories are the longest best-first prefix whose text block fits maxTokens (`context.tokens` ≤ maxTokens, exactly the count of `context.text`), and only those are touched. With sections (e.g. `[{kinds:["lesson"]},{kinds:["reflection"]},{kinds:["observation","document"]}]`), the block is in sections, each under its header: every candidate of the sections' kinds is scored as above (bounds over them all), each section keeps its own top k, and maxTokens is spent on section 0's best-first prefix, then section 1's from what is left, and so on (docs/adr/0019-sections-and-retention.md). `memories` lists them section by section, each with its `section`. With timeFilter, a time expression in the query ("in June 2023", "last week") keeps the memories created in that window (± 1 day), unless none is; `ranking.timeWindow` gives the window applied (exact mode only). Ranking fields (preset, weights, decay, recencyUnit, relevance, vectorShare, timeFilter, scaleFloors, versions, collapseDuplicates, subjects) left out come from the agent's defaults (PUT /v1/agents/{agentId}/settings), else from the preset (service default: balanced); a request naming a preset ignores the agent's individual values. `ranking` in the answer gives the values in force. When lexical or hybrid comes from a default and the request has no query text, relevance is vector. mode auto (default) ranks hybrid and contextual relevance with a query vector over a stream of 3,300+ memories in phases (plan phased: the formula on seeds from the HNSW, GIN and recency indexes and their neighbours, approximate and measured, docs/adr/0032) and everything else exactly; mode exact always ranks exactly. Every retrieve is bounded by MEMSTREAM_RETRIEVE_TIMEOUT_MS (503 retrieve_timeout). mode fast (no filters, an HNSW index for the query's model) reads the HNSW index and the recency and importance indexes round by round until no unread memory can beat the k-th score (a threshold algorithm); it is exact only as far as HNSW returns the nearest vectors in order and finds the farthest one (the relevance minimum), so it stays opt-in (docs/adr/0020-threshold-retrieval.md). When it cannot settle within its depth limit the exact ranking answers. The response says which mode ran; a stream under MEMSTREAM_FAST_MIN_STREAM vectors (or MEMSTREAM_FAST_MIN_SHARE of the index) is ranked exactly, index or not. `ranking.plan` names the statement the planner chose (full: every candidate scored; sections; threshold: a whole stream ranked exactly, scoring only memories that can reach the top k; fused: the same for hybrid and contextual relevance; fast) and `ranking.planReason` why (docs/adr/0023). Each memory's `score` is Σ weight · `scores` (the scaled components) + `scores.lift` (versions, below) + `scores.subject` (subjects, below), so hits can be re-ranked under other weights; `scores.similarity` is the unscaled cosine (relevance vector), comparable across retrieves. With versions (on in the default), the question's time focus (`ranking.focus`) decides which version of a fact comes first among the best 10: a present-state question lifts a memory to a better, older one it is ≥ 0.55 cosine-similar to (the newer version first), and a superseded memory among them (`supersededBy`) hands its score to its replacement, ranked right above it (`ranking.superseded`). Every answer has `freshness`: how many of the agent's memories were not yet searchable (no vector yet) and the oldest one's age; waitSearchableMs waits, bounded, until what was written before the retrieve is (docs/adr/0035). With asOf, the stream as it stood at that time: memories created by then, supersession and last accesses as they were, nothing touched (docs/adr/0033). With collapseDuplicates (on in the default), copies of a memory (same kind, same description but for case, spacing and punctuation) take one place: the best-ranked stands for them and `duplicates` counts the copies it folds. With subjects (on in the default), an English question naming someone lifts, among the best k + 50, the memories whose description starts with that name (`scores.subject`).
         */
        post: operations["retrieveMemories"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Say which memories of a retrieve the agent used
         * @description Records, for one retrieve of this agent (its `retrievalId`, while in the agent's retrieval log), which memories the agent used and which it did not. `used` may name a memory the retrieve returned or ranked below the cut (the pool it logged: found later, by another retrieve, say), which is what lets a fit lift what it missed. Another agent's retrievalId, or one past the log's bounds, is a 404; an id the retrieve did not rank, or one in both lists, a 400 naming it. Feedback given again replaces the earlier one. With learning on for the agent (`learnWeights`, GET /settings), every `MEMSTREAM_LEARN_MIN_EVENTS` retrieves with feedback and every 10 more start an `agent.learn` fit of its ranking weights (docs/api.md: Feedback and learned weights).
         */
        post: operations["giveFeedback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/learned-weights": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Forget the weights learned from the agent's feedback
         * @description The agent's retrieves rank with its defaults again (the preset's, or its own retrieval settings); later fits use only feedback given after now. Learning stays on or off as it was (`learnWeights` in PUT /settings).
         */
        delete: operations["resetLearnedWeights"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/cache": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Clear the agent's result cache
         * @description Every process's cached retrieves of the agent stop matching: the next identical retrieve ranks again. Never needed for correctness (any write to the agent does the same); for an operator who wants fresh recency now.
         */
        delete: operations["clearRetrieveCache"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/github": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * GitHub webhook receiver
         * @description Point a repository, organization or GitHub App webhook here. Authenticated by `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with a secret from `GITHUB_WEBHOOK_SECRET`), not by an API key. Needs `X-GitHub-Event` and `X-GitHub-Delivery`. Stores the delivery and answers at once; processing is asynchronous (see `GET /v1/webhooks/github/deliveries`).
         */
        post: operations["receiveGithubWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/github/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent GitHub deliveries and their status, newest first
         * @description A scoped key sees only deliveries routed to at least one of its agents, and of each delivery's agents only its own. Payloads are never listed.
         */
        get: operations["listGithubDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/github/deliveries/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a received or failed GitHub delivery now
         * @description Enqueues the delivery's `github.deliver` job (a no-op while one is already queued). The failed-attempt count is kept. A key with an agent prefix may only retry deliveries routed to one of its agents.
         */
        post: operations["retryGithubDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/reflect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reflect now: questions over recent memories, insights stored as `reflection` memories
         * @description Runs one reflection synchronously (a few LLM calls) and records it as a run. The insights are returned as memories of kind `reflection`, with `citations` naming the memories they rest on; their importance and embedding are computed later like any memory's. A failed LLM call fails the whole run (502, `details.runId`) and stores no insight.
         */
        post: operations["reflectAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/reflections/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent reflection runs, newest first (trigger, questions, insights, LLM usage)
         * @description The agent's most recent reflection runs, manual or triggered by accumulated importance: status, the questions asked, the insights stored and the tokens the LLM used. A failed run carries its error.
         */
        get: operations["listReflectionRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The agent's settings and the values in force
         * @description The settings stored for the agent (each null when not set) and the values in force (`effective…`: the stored value, else the deployment default).
         */
        get: operations["getAgentSettings"];
        /**
         * Set the agent's settings (reflection threshold, retrieve defaults, retention, lesson consolidation, LLM budget)
         * @description Changes the fields given: a field left out keeps its stored value, `null` returns it to the deployment default. Answers the stored settings and the values now in force (`effective…`). Retrieve defaults apply to the next retrieve; a retention policy on the next `agent.retain` run.
         */
        put: operations["updateAgentSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/outcomes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record the outcome of a task (stored as an `outcome` memory)
         * @description Stores an `outcome` memory described in words from the fields (retrieved like any memory; importance 6 for a failure, 4 for a success) with the structured fields beside it, and enqueues an `outcomes.consolidate` job: once `lessons.minOutcomes` similar outcomes of the task type accumulate, a `lesson` memory is written or revised.
         */
        post: operations["recordOutcome"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/lessons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The agent's lessons with counts, confidence, revision and citations
         * @description Lessons are `lesson` memories written by consolidating similar outcomes; retrieve ranks them like any memory. Most confident first.
         */
        get: operations["listLessons"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/enrichment/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry failed enrichment
         * @description Puts the agent's memories whose importance or embedding failed back to pending and enqueues them. Answers with how many fields were reset.
         */
        post: operations["retryEnrichment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/forget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply a retention policy now, or preview it (dryRun)
         * @description Deletes the memories a retention policy forgets — the request's `policy`, else the agent's own — oldest first, in bounded batches, with their vectors; or with `dryRun` reports what it would delete (count, by kind, a sample of ids) without deleting. maxAgeDays: memories created longer ago go; maxMemories: the oldest deletable memories go until at most that many remain; keepImportanceAtLeast: memories at least that important (or not yet scored) stay. Never deleted: lessons, document sections (DELETE /documents owns them), and any memory a reflection or lesson cites. Deleted memories are counted in the agent's stats (`forgotten`); enrichment still in flight for them writes nothing. 400 when no policy is given and the agent has none.
         */
        post: operations["forgetMemories"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/maintenance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Compact older observations into summaries now, or count what would be (dryRun)
         * @description Compaction (what the agent.retain job runs for agents with compaction settings): the agent's observations created before `before` are grouped by day and session (metadata.session) into summary memories, at most groupMax each, worded from their most important and most central members; the members move to the archive tier with their vector and edit history. Archived memories are not ranked; a retrieve reaches them with `expand`, a list with tiers=archive, and deletion, expiry and erasure reach them as any memory. Other kinds are not compacted. 400 without `before` when the agent has no compaction.afterDays.
         */
        post: operations["maintainAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the agent's stream as JSON Lines (streamed)
         * @description Streams the agent's stream as JSON Lines: a header (format version, embedding models, settings), then one line per memory (oldest first) with its vectors per model, importance, times (microseconds), metadata, kind, citations and supersession, an outcome's fields and a lesson's revisions; then the documents and the finished reflection runs; then an end line with the counts, so a cut-short file is told from a whole one. Read a page of memories at a time from one snapshot (on PostgreSQL). Not exported: the retrieval log and feedback, learned weights, erasure receipts, GitHub delivery state (docs/adr/0038). `POST /v1/agents/{agentId}/import` reads it back.
         */
        get: operations["exportAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a stream written by export (JSON Lines, streamed, all or nothing)
         * @description Reads a file written by `GET /v1/agents/{agentId}/export` (of this agent or another) line by line and writes it in batches inside ONE transaction: a bad line (JSON, a field, a reference to a memory neither in the file nor the agent, a missing end line) answers 400 naming the line and the field, and nothing of the file stays. Ids are kept, so citations, supersession and lesson revisions mean what they meant; a memory, document or run whose id the agent already has is left as it is (`existing`), so importing the same file again adds nothing. Settings are written only when the agent has none. Limits: 8388608 bytes a line, 20000000 lines, 34359738368 bytes a body (MEMSTREAM_MAX_BODY_BYTES does not apply: the body is read as it arrives).
         */
        post: operations["importAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the agent's imported documents by source
         * @description One entry per imported document source: its title, format, number of sections and tokens, and when it was last imported. Cursor-paginated by source (`next`).
         */
        get: operations["listDocuments"];
        put?: never;
        /**
         * Import a document (markdown, HTML or text) as sections
         * @description Splits the document by its headings into sections of at most `maxTokens` tokens, each stored as a `document` memory with its source, heading path and position in metadata. Importing the same `source` again replaces the previous version in one transaction (sections whose text is unchanged are kept with their enrichment); reflections and lessons citing a removed section are deleted with it (`derived`).
         */
        post: operations["importDocument"];
        /**
         * Delete a document source and all its sections
         * @description Deletes every section memory imported from `source` (and their vectors); in the same transaction the reflections and lessons citing them (and what cites those) are deleted too; other memories are untouched. Answers how many sections were removed (0 when the source is unknown) and the derived memories deleted per kind.
         */
        delete: operations["deleteDocument"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/imports/github": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a GitHub repository's history into the agent's stream (a background job)
         * @description Reads the repository's issues and pull requests (with their reviews and comments), releases and default-branch commits through the GitHub REST API (`GITHUB_TOKEN`) and stores them as observations with the webhooks' describers and noise rules, each at its own time. An unfinished import of the same repository and `since` is resumed instead of started again; events already in the stream (an earlier import, a webhook) are not stored twice.
         */
        post: operations["startGithubImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/imports/github/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A repository import's status, phase and counts
         * @description Poll it after starting an import: `status` (queued, running, succeeded, failed), the phase and page it has reached, and the counts so far (fetched, stored, already there, ignored as noise, rate-limited waits). A failed import carries its reason; starting the same import again resumes it.
         */
        get: operations["getGithubImport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The agent's event subscriptions (never their secrets)
         * @description Every subscription of the agent, oldest first: URL, event types, `active` or `disabled` (after MEMSTREAM_EVENTS_DISABLE_AFTER deliveries in a row failed for good) and the failures in a row so far. The secret is never shown again after creation.
         */
        get: operations["listEventSubscriptions"];
        put?: never;
        /**
         * Subscribe a URL to the agent's events (signed POSTs, retried; docs/events.md)
         * @description From the next committed write on, each event of the named types (memory written, enriched, superseded, deleted; reflection and lesson written; agent erased) is POSTed to `url` as JSON, signed with `X-Memstream-Signature-256: sha256=<HMAC-SHA256 of the raw body>` under the subscription's secret, with `X-Memstream-Event` and `X-Memstream-Delivery`. The answer carries the secret: the only time it is shown. At most 10 subscriptions per agent. Loopback, private and link-local addresses are refused unless the server allows them (MEMSTREAM_EVENTS_ALLOW_PRIVATE).
         */
        post: operations["createEventSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/subscriptions/{subscriptionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One event subscription: its URL, events, status and failures in a row
         * @description The subscription as listed (never its secret); 404 when the agent has none by that id.
         */
        get: operations["getEventSubscription"];
        put?: never;
        post?: never;
        /**
         * Unsubscribe: no more events, and the delivery log goes with it
         * @description Deletes the subscription and its delivery log. Nothing more is recorded for it; a delivery already queued finds no row and sends nothing.
         */
        delete: operations["deleteEventSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/subscriptions/{subscriptionId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A subscription's delivery log, newest first
         * @description Each event sent (or to send) to the subscription: `pending` (with `nextAttemptAt`), `delivered` (a 2xx), `failed` (every attempt failed) or `cancelled` (an erasure cancelled it before it was sent), with the attempts made and the last response code or error. `before` (a delivery id) pages back.
         */
        get: operations["listEventDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/subscriptions/{subscriptionId}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a logged delivery's event again, as a new delivery
         * @description A new delivery of the same event (same event id and body data, its own delivery id and attempts, `redeliveryOf` naming the first), queued at once. Refused with 409 for a pending delivery, one an erasure cancelled, or a disabled subscription.
         */
        post: operations["redeliverEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Memory: {
            id: string;
            agentId: string;
            /** @enum {string} */
            kind: "observation" | "reflection" | "plan" | "document" | "outcome" | "lesson" | "summary";
            description: string;
            createdAt: string;
            lastAccessedAt: string;
            importance: number | null;
            /** @description Who scored importance: `caller`, the scorer's id (an `llm:` model or the offline scorer), `budget:<offline scorer>` when the agent's daily LLM budget was spent, `outcome`, `lesson`; null until scored */
            importanceSource: string | null;
            embeddingModel: string | null;
            metadata: {
                [key: string]: unknown;
            };
            citations: string[];
            /** @description Cited ids whose memory has been deleted since; absent when none */
            missingCitations?: string[];
            /** @description The memory that replaced this one (a newer version of the same fact: the caller's `supersedes`, or the supersession job with an LLM configured); null while current, and again if the replacing memory is deleted */
            supersededBy: string | null;
            /** @description When this memory stopped holding (the replacing memory's createdAt); null while current */
            validUntil: string | null;
            /** @description When it stops existing; null = never */
            expiresAt: string | null;
            status: {
                /** @enum {string} */
                importance: "pending" | "ready" | "failed";
                /** @enum {string} */
                embedding: "pending" | "ready" | "failed";
            };
            errors?: {
                importance?: string;
                embedding?: string;
            };
            /** @description Present on a memory in the archive tier: compaction moved it behind the summary `summaryId` at `archivedAt`; `expansions` counts the retrieves that expanded it (promoted back to the ranked stream at the agent's compaction.promoteAfter). Absent on ranked memories */
            archived?: {
                summaryId: string;
                archivedAt: string;
                expansions: number;
            };
        };
        CreatedIds: {
            ids: string[];
        };
        CreatedId: {
            id: string;
        };
        Error: {
            error: {
                code: components["schemas"]["ErrorCode"];
                /** @example body.description: description must not be empty */
                message: string;
                requestId: string;
                /** @description `field` names the offending field or header; `limit` the limit passed */
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        /**
         * @description Stable machine code of an error; each maps to one HTTP status (invalid_request 400, unauthorized 401, invalid_signature 401, not_found 404, conflict 409, payload_too_large 413, unsupported_media_type 415, internal 500, not_configured 501, invalid_provider_answer 502, reflection_failed 502, unavailable 503)
         * @example invalid_request
         * @enum {string}
         */
        ErrorCode: "invalid_request" | "unauthorized" | "invalid_signature" | "not_found" | "conflict" | "payload_too_large" | "unsupported_media_type" | "internal" | "not_configured" | "invalid_provider_answer" | "reflection_failed" | "unavailable" | "retrieve_timeout" | "llm_budget_exhausted";
        NewMemory: {
            description: string;
            /** @enum {string} */
            kind?: "observation" | "reflection" | "plan";
            /**
             * Format: date-time
             * @description ISO 8601 with an offset; years 0001-9999
             * @example 2026-11-22T10:00:00Z
             */
            createdAt?: string;
            importance?: number;
            embedding?: ((number[] | number[] | string) | (string | number[])) | number[] | string;
            embeddingModel?: string;
            /**
             * @description JSON object, at most 16384 bytes serialized and 32 levels deep; no NUL or lone surrogates in its strings
             * @example {
             *       "source": "github",
             *       "repository": "acme/api"
             *     }
             */
            metadata?: {
                [key: string]: unknown;
            };
            citations?: string[];
            /**
             * @description Ids of earlier memories of the same agent that this one replaces (a newer version of the same fact, at most 100). Each gets `supersededBy` = the new id and `validUntil` = the new memory's createdAt; nothing is deleted. Present-state questions rank a superseded memory below its replacement; past-state questions still find it.
             * @example [
             *       "mem_01JB7Z3Q4K8N2M5P6R7S8T9V0W"
             *     ]
             */
            supersedes?: string[];
            /**
             * Format: date-time
             * @description When the memory stops existing: from then on no retrieve, list, get or context shows it (the read deletes it first, with what was derived from it), and retention removes it. Absent = never
             * @example 2026-12-31T00:00:00Z
             */
            expiresAt?: string;
        };
        MemoryRevision: {
            /** @description 1 for the first version replaced, then one more each */
            revision: number;
            description: string;
            /** @description Null when it had none yet */
            importance: number | null;
            metadata: {
                [key: string]: unknown;
            };
            /** @description When a PATCH replaced these values */
            replacedAt: string;
        };
        MemoryPatch: {
            description?: string;
            /** @enum {string} */
            kind?: "observation" | "reflection" | "plan";
            importance?: number;
            embedding?: number[];
            embeddingModel?: string;
            /**
             * @description Replaces the metadata object as a whole
             * @example {
             *       "source": "github",
             *       "repository": "acme/api"
             *     }
             */
            metadata?: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When the memory stops existing (a past time: at once); null = never
             * @example 2026-11-22T10:00:00Z
             */
            expiresAt?: string | null;
        };
        /** @description Reflections and lessons deleted with the memories they cite (and what cites those), summaries left with no member, and (`archived`) the archived members a deleted summary stood for; kinds with none left out. A summary that keeps members is worded again from them. */
        DerivedDeleted: {
            reflection?: number;
            lesson?: number;
            summary?: number;
            archived?: number;
        };
        DeleteMemoriesReport: {
            dryRun: boolean;
            /** @description Memories deleted, derived ones included (dry run: that match) */
            count: number;
            /** @description count by kind; kinds with none left out */
            byKind: {
                [key: string]: number;
            };
            derived: components["schemas"]["DerivedDeleted"];
            /** @description Asked ids the agent does not have (ids only) */
            notFound?: string[];
            /** @description The filter matched more than one request deletes (10000): send it again */
            more: boolean;
        };
        DeleteMemoriesRequest: {
            ids?: string[];
            filter?: components["schemas"]["DeleteFilter"];
            /** @description Count what matches, delete nothing; default false */
            dryRun?: boolean;
        };
        DeleteFilter: {
            kinds?: ("observation" | "reflection" | "plan" | "document" | "outcome" | "lesson" | "summary")[];
            /**
             * @description Memories whose metadata contains this object
             * @example {
             *       "source": "github",
             *       "repository": "acme/api"
             *     }
             */
            metadata?: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description createdAt at or after
             * @example 2026-11-22T10:00:00Z
             */
            since?: string;
            /**
             * Format: date-time
             * @description createdAt at or before
             * @example 2026-11-22T10:00:00Z
             */
            until?: string;
            /** @description metadata.source equals it (a document's path, `github`, …) */
            source?: string;
        };
        ErasureReceipt: {
            id: string;
            agentId: string;
            /** @description The agent's erase count after this one */
            epoch: number;
            erasedAt: string;
            /** @description Rows removed per table, cascades included */
            rows: {
                [key: string]: number;
            };
            /** @description Memories removed per kind */
            memoriesByKind: {
                [key: string]: number;
            };
            /** @description Pending work that writes nothing now: `enrichment` (memories whose importance or vector was not done), `reflectionRuns` (runs still running) */
            cancelled: {
                [key: string]: number;
            };
        };
        AgentStats: {
            agentId: string;
            total: number;
            byKind: {
                observation: number;
                reflection: number;
                plan: number;
                document: number;
                outcome: number;
                lesson: number;
                summary: number;
            };
            /** @description Memories per tier: recent and summary are ranked (`total` counts them), archive holds what compaction moved behind summaries */
            tiers: {
                recent: number;
                summary: number;
                archive: number;
            };
            importance: {
                pending: number;
                ready: number;
                failed: number;
            };
            embedding: {
                pending: number;
                ready: number;
                failed: number;
            };
            oldest: string | null;
            newest: string | null;
            /** @description Memories deleted by retention (agent.retain job and forget), all time */
            forgotten: number;
            /** @description Last run of the agent's retention policy; null = never */
            retainedAt: string | null;
            llmBudget: components["schemas"]["LlmBudgetStatus"];
        };
        /** @description Today's LLM spend (the provider's reported usage) against the agent's and its keys' daily budgets */
        LlmBudgetStatus: {
            /** @description The UTC day counted, YYYY-MM-DD */
            day: string;
            /** @description When the next day's budget starts */
            resetsAt: string;
            /** @description The agent's own limits; null = unlimited */
            limits: {
                tokens: number | null;
                calls: number | null;
            };
            spent: {
                tokens: number;
                promptTokens: number;
                completionTokens: number;
                calls: number;
            };
            /** @description null = unlimited */
            remaining: {
                tokens: number | null;
                calls: number | null;
            };
            /** @description Budgets of the API keys (`MEMSTREAM_API_KEYS` `…;dailyTokens=N`) whose scope holds this agent */
            keys: components["schemas"]["KeyLlmBudget"][];
            /** @description The agent's limit or a key's is reached: importance is scored offline, reflection and supersession wait for resetsAt */
            exhausted: boolean;
        } | null;
        /** @description The daily budget of an API key that opens this agent, shared by every agent of its scope */
        KeyLlmBudget: {
            /** @description The key's scope: `*` (every agent), `prefix:<p>` or `exact:<id>` */
            scope: string;
            /** @description Limits in force; null = unlimited */
            limits: {
                tokens: number | null;
                calls: number | null;
            };
            /** @description What all the agents of the scope spent today */
            spent: {
                tokens: number;
                promptTokens: number;
                completionTokens: number;
                calls: number;
            };
            /** @description null = unlimited */
            remaining: {
                tokens: number | null;
                calls: number | null;
            };
            exhausted: boolean;
        };
        ScoredMemory: components["schemas"]["Memory"] & {
            score: number;
            scores: {
                recency: number;
                importance: number;
                relevance: number;
                /** @description The score a version lift added (ranking.lift; 0 otherwise) */
                lift: number;
                /** @description The score the subject lift added (the memory starts with a name the question gives; 0 otherwise) */
                subject: number;
                /** @description The cosine similarity of the memory's vector to the query's, unscaled (relevance vector); null with another relevance or when the memory has no vector of the query's model. Comparable across retrieves and agents, where the scaled components are not */
                similarity: number | null;
            };
            /** @description How many duplicates of this memory (same kind and description but for case, spacing and punctuation), ranked among the best, it stands for (collapseDuplicates on, as in the default; 0 otherwise) */
            duplicates: number;
            /** @description Index of its section (requests with sections) */
            section?: number;
            /** @description In a flattened answer (`flatten`): the summary this archived member was expanded from */
            expandedFrom?: string;
            /** @description A summary's archived members, best first, with their cosine to the query (null without a query vector of their model); present on summaries when the request asked to `expand` */
            expanded?: components["schemas"]["ExpandedMemory"][];
        };
        ExpandedMemory: components["schemas"]["Memory"] & {
            similarity: number | null;
            /** @description Hybrid relevance to the query (0.6 × cosine + 0.4 × shared words, each scaled over every member this retrieve expanded), 0–1 */
            relevance: number;
        };
        /** @description The ranking values in force (request, else the agent's defaults, else the preset), the time window applied, and which statement ranked and why */
        RetrieveRanking: components["schemas"]["Ranking"] & {
            /** @description The createdAt window [start, end) a time expression in the query limited the candidates to (when any memory is in it); null when none applied */
            timeWindow: {
                start: string;
                end: string;
            } | null;
            /**
             * @description The question's time focus, read from its words: present ("Where does Alice live?", "currently"), past ("before", "used to", "When did…", a named time) or none; with versions on, a present-state question lifts the newer version of a fact
             * @enum {string}
             */
            focus: "present" | "past" | "none";
            /**
             * @description Which versions were lifted among the best (versions on, a query vector, full or phased statement); null = none
             * @enum {string|null}
             */
            lift: "newer" | null;
            /** @description How many of the memories returned were superseded (`supersededBy`) and rank right below their replacement, which took their score: a present-state question (lift newer) only; past-state questions rank superseded memories by the formula alone */
            superseded: number;
            /**
             * @description The statement that ranked (docs/adr/0023): full = every candidate scored; sections = the same per section; threshold = a whole stream ranked exactly, scoring only memories that can reach the top k; fused = the same for hybrid and contextual relevance (every memory's fused relevance, words through the GIN index); fast = the threshold search over indexes (mode fast); phased = the formula on seeds from the indexes (mode auto, docs/adr/0032)
             * @enum {string}
             */
            plan: "full" | "sections" | "threshold" | "fused" | "fast" | "phased";
            /**
             * @description Why the planner chose it, e.g. "vector relevance over a whole stream of 3,300+ memories: only memories that can reach the top k scored"
             * @example relevance contextual: every memory scored
             */
            planReason: string;
            phases: components["schemas"]["RankPhases"];
            /** @description The word rules that ran: the time focus and the time filter read English only; for another language the formula alone ranks (focus none, no time window) */
            rules: {
                /**
                 * @description The query's language as the rules read it: English, or another (letters mostly outside the Latin script, or another language's function words outnumbering English ones)
                 * @enum {string}
                 */
                language: "en" | "other";
                /** @description Whether the time focus (and so the version lift) was read from the query's words */
                focus: boolean;
                /** @description Whether the time filter looked for a time expression in the query (on, and the query English) */
                timeFilter: boolean;
                /** @description Whether the names the query gives were read for the subject lift (subjects on, and the query English) */
                subjects: boolean;
            };
        };
        /** @description How the ranking ran in phases: the first phase's source, how many memories the formula scored, and the steps after it */
        RankPhases: {
            /**
             * @description Where the formula's candidates came from: the whole stream (or the candidate set filters leave), or seeds from the indexes (plan phased; plan fast reads its candidates from indexes in rounds)
             * @enum {string}
             */
            first: "stream" | "indexes";
            /** @description The first phase's lists (plan phased); each seed's previous and next memory join it for contextual relevance. Null for other plans */
            seeds: {
                /** @description Distinct distances nearest the query vector, at most */
                vector: number;
                /** @description Best by BM25 over the postings of the query's words, at most */
                lexical: number;
                /** @description Newest by last access */
                recent: number;
                /** @description Farthest from the query vector (the low end of the cosine's range) */
                far: number;
                /**
                 * @description The model's HNSW index, or one pass over the agent's vectors (streams below MEMSTREAM_FAST_MIN_STREAM)
                 * @enum {string}
                 */
                vectorFrom: "hnsw" | "scan";
            } | null;
            /** @description Memories the formula scored (seeds and their neighbours, or the candidate set) */
            scored: number;
            /** @description Steps on the formula's best, in order: neighbours = contextual relevance mixed each memory's with its neighbours'; versions = the version lift; subjects = memories starting with a name the question gives lifted; duplicates = copies took one place */
            steps: ("neighbours" | "versions" | "subjects" | "duplicates")[];
        };
        /** @description The ranking values in force: explicit request fields, else (weights) the weights learned from the agent's feedback when on and adopted, else the agent's defaults (settings), else the preset's */
        Ranking: {
            /** @enum {string} */
            preset: "paper" | "reference" | "balanced";
            weights: {
                recency: number;
                importance: number;
                relevance: number;
            };
            decay: number;
            /** @enum {string} */
            recencyUnit: "minute" | "hour" | "day" | "week";
            /** @enum {string} */
            relevance: "vector" | "lexical" | "hybrid" | "contextual" | "windowed";
            vectorShare: number;
            timeFilter: boolean;
            scaleFloors: boolean;
            versions: boolean;
            collapseDuplicates: boolean;
            subjects: boolean;
            source: {
                /** @enum {string} */
                preset: "request" | "agent" | "default";
                /**
                 * @description learned: the weights fitted to the agent's own feedback (POST /feedback; on when learnWeights is, see GET /settings)
                 * @enum {string}
                 */
                weights: "request" | "learned" | "agent" | "preset";
                /** @enum {string} */
                decay: "request" | "agent" | "preset";
                /** @enum {string} */
                recencyUnit: "request" | "agent" | "preset";
                /** @enum {string} */
                relevance: "request" | "agent" | "preset";
                /** @enum {string} */
                vectorShare: "request" | "agent" | "preset";
                /** @enum {string} */
                timeFilter: "request" | "agent" | "preset";
                /** @enum {string} */
                scaleFloors: "request" | "agent" | "preset";
                /** @enum {string} */
                versions: "request" | "agent" | "preset";
                /** @enum {string} */
                collapseDuplicates: "request" | "agent" | "preset";
                /** @enum {string} */
                subjects: "request" | "agent" | "preset";
            };
        };
        RetrieveFreshness: {
            /** @description The agent's memories still waiting for their vector when this retrieve read the stream (not searchable by meaning yet) */
            pending: number;
            /** @description Age of the oldest of them, ms since it was written; null with none */
            oldestPendingMs: number | null;
            /** @description Of the candidates among them, how many this retrieve embedded itself and ranked by meaning (read your own writes, MEMSTREAM_RETRIEVE_EMBED_PENDING) */
            embeddedInline: number;
            /** @description With waitSearchableMs: how long it waited, and whether every memory written before it became searchable */
            waited?: {
                ms: number;
                complete: boolean;
            };
        };
        RetrieveContext: {
            text?: string;
            tokens: number;
            /** @enum {string} */
            encoding: "cl100k_base" | "o200k_base";
            truncated: boolean;
            /** @description Per section (requests with sections): header, kinds, memories returned, cut by the budget */
            sections?: {
                title: string;
                kinds: string[] | null;
                count: number;
                truncated: boolean;
            }[];
        };
        RetrieveRequest: {
            /** @example CI is failing on main again */
            query?: string;
            queryEmbedding?: number[];
            embeddingModel?: string;
            /** @description Results; default 10, or 50 candidates when maxTokens is given */
            k?: number;
            /**
             * @description A named ranking (recency/importance/relevance weights, decay, relevance, time filter): paper = weights 1/1/1, 0.99 per hour, vector; reference = weights 0.5/2/3, 0.99 per hour, vector; balanced = weights 0.1/0.1/1, 0.998 per day, contextual, time filter, scale floors, versions, duplicates collapsed, subjects
             * @enum {string}
             */
            preset?: "paper" | "reference" | "balanced";
            weights?: {
                recency?: number;
                importance?: number;
                relevance?: number;
            };
            /** @description recency = decay^(time since last access in recencyUnit) */
            decay?: number;
            /**
             * @description The time unit decay applies per (paper: hour)
             * @enum {string}
             */
            recencyUnit?: "minute" | "hour" | "day" | "week";
            /**
             * @description vector (the paper's): cosine similarity to the query embedding; lexical: BM25 (k1 1.2, b 0.75) of the query's words; hybrid: 0.6·vector' + 0.4·lexical'; contextual: hybrid + 0.7·the better hybrid of the memory's two neighbours by createdAt (each only within an hour: the same conversation); windowed: contextual whose lexical part is BM25F with the words of up to 5 neighbours either side of the same conversation, the nearest weighted 0.5, each further one × 0.7, and whose cosine leaves out the question form (the agent's direction from its statements to its questions, with 10 of each; the strongest relevance alone). All but vector need query text and rank exactly
             * @enum {string}
             */
            relevance?: "vector" | "lexical" | "hybrid" | "contextual" | "windowed";
            /** @description α of hybrid, contextual and windowed relevance: α·vector' + (1 − α)·lexical' (default 0.6; presets may set their own) */
            vectorShare?: number;
            /** @description A time expression in the query (English: "on 9 May 2023", "in June", "last week", "yesterday", "in 2022"; relative to now) limits the candidates to memories created in that window, widened by 1 day on each side, unless none is in it. Exact mode only; the answer's ranking.timeWindow gives the window applied */
            timeFilter?: boolean;
            /** @description Scale recency over at least the decay of 30 recencyUnits and importance over at least 5 points, so a small spread stays small (off: plain min-max, the paper's) */
            scaleFloors?: boolean;
            /** @description For a present-state question (ranking.focus present: "Where does Alice live?"): among the best 10, a memory at least 0.55 cosine-similar to a better, older one takes its score (the newer version of a fact comes first); equal scores newest first. Needs a query vector */
            versions?: boolean;
            /** @description Duplicates take one place in the top k: memories of the same kind whose descriptions are equal but for case, spacing, punctuation and symbols are one hit, the best-ranked standing for the others (its `duplicates` counts those folded among the best k + 50 ranked). Off: every copy ranked on its own (the paper's) */
            collapseDuplicates?: boolean;
            /** @description A question naming someone (a capitalised word other than its first, English questions only: "What does Melanie do to destress?") lifts, among the best k + 50 ranked, each memory whose description starts with that name by 0.05 × the relevance weight (scores.subject). Off: the formula alone */
            subjects?: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 with an offset; years 0001-9999
             * @example 2026-11-22T10:00:00Z
             */
            now?: string;
            /**
             * Format: date-time
             * @description Recall as of this time: only memories created at or before it are candidates; a memory counts as superseded only if its replacement existed by then; recency reads each memory's last access known to precede it (else its createdAt); the version lift and the time filter are judged at it (it is the retrieve's now, so not with `now`, nor with mode fast). Nothing is touched or logged (feedback on its retrievalId is a 404). Memories deleted since are gone for good
             * @example 2026-02-01T00:00:00Z
             */
            asOf?: string;
            /** @description Mark the returned memories as accessed now (lastAccessedAt); default true */
            touch?: boolean;
            /**
             * @description Wait up to this many ms (at most 10000) until every memory of the agent written before this retrieve has its vector, then rank; `freshness.waited` says how long and whether everything became searchable. Default 0: rank at once
             * @example 2000
             */
            waitSearchableMs?: number;
            kinds?: ("observation" | "reflection" | "plan" | "document" | "outcome" | "lesson" | "summary")[];
            /** @description The ranked tiers: `recent` (every kind but summaries) and `summary` (what compaction wrote); default both. Archived memories are reached through `expand`, or listed with GET …/memories?tiers=archive */
            tiers?: ("recent" | "summary")[];
            /** @description Each summary that ranks carries `expanded`: its archived members, best first by cosine to the query (else importance, then recency); true = 3 each, a number = that many (at most 20). With touch, an expansion counts as an access of the member, and one expanded the agent's compaction.promoteAfter times moves back to the ranked stream */
            expand?: boolean | number;
            /** @description Replace each summary that ranks by its archived members (`expandedFrom` names the summary): a member scores its summary's score × (0.5 + 0.5 × its relevance among the expanded members), and the answer is the top k of them and the other ranked memories. Expands 20 members a summary unless `expand` gives a number; with touch, only the members answered count as expanded */
            flatten?: boolean;
            /**
             * @description Default auto. auto ranks in phases where the ranking allows it (hybrid or contextual relevance with a query vector, no filters or sections: the formula on seeds from the HNSW, GIN and recency indexes, bounded by the query rather than the stream, docs/adr/0032), else exactly; exact ranks every candidate by the formula; fast runs a threshold search over the HNSW and recency/importance indexes (exact as far as HNSW is), for streams of at least MEMSTREAM_FAST_MIN_STREAM memories and MEMSTREAM_FAST_MIN_SHARE of the model's indexed vectors, ranking smaller ones exactly (with or without an index). The response's mode says which ran, ranking.plan which statement
             * @enum {string}
             */
            mode?: "auto" | "exact" | "fast";
            filters?: {
                /**
                 * Format: date-time
                 * @description ISO 8601 with an offset; years 0001-9999
                 * @example 2026-11-22T10:00:00Z
                 */
                since?: string;
                /**
                 * Format: date-time
                 * @description ISO 8601 with an offset; years 0001-9999
                 * @example 2026-11-22T10:00:00Z
                 */
                until?: string;
                /**
                 * @description JSON object, at most 16384 bytes serialized and 32 levels deep; no NUL or lone surrogates in its strings
                 * @example {
                 *       "source": "github",
                 *       "repository": "acme/api"
                 *     }
                 */
                metadata?: {
                    [key: string]: unknown;
                };
            };
            /** @description Return the best-first prefix whose text block (format text) fits in this many tokens, counted with the configured encoding */
            maxTokens?: number;
            /**
             * @description A context block in sections (at most 8), in this order, under one maxTokens: e.g. lessons, then reflections, then observations. Each memory goes to the section naming its kind (a kind in one section only; a section without kinds takes every kind no section names), each section ranks its own top k. The budget goes to section 0's best-first prefix, then section 1's from what is left, and so on. Not with kinds or mode fast.
             * @example [
             *       {
             *         "kinds": [
             *           "reflection"
             *         ],
             *         "k": 5
             *       },
             *       {
             *         "kinds": [
             *           "observation",
             *           "document"
             *         ]
             *       }
             *     ]
             */
            sections?: components["schemas"]["ContextSection"][];
            /**
             * @description "text" adds `context.text`, a prompt-ready block of the returned memories
             * @enum {string}
             */
            format?: "json" | "text";
        };
        ContextSection: {
            /** @description Kinds in this section; absent = every kind no other section names */
            kinds?: ("observation" | "reflection" | "plan" | "document" | "outcome" | "lesson" | "summary")[];
            /** @description Candidates ranked for this section; default the request's k (or its default) */
            k?: number;
            /** @description Header line of the section in the text block; default from its kinds, e.g. "Reflections (most relevant first)" */
            title?: string;
        };
        FeedbackRecorded: {
            retrievalId: string;
            used: number;
            unused: number;
            /** @description The agent's retrieves with feedback in its log, this one included */
            events: number;
        };
        Feedback: {
            /** @example ret_3n8x0qk2m7v5c9d1f4h6 */
            retrievalId: string;
            /**
             * @description Ids of the memories the agent used (e.g. its answer cited them): returned by the retrieve, or ranked below its cut; may be empty
             * @example [
             *       "mem_5d1q0r2b7c9e3f4g6h8j"
             *     ]
             */
            used: string[];
            /** @description Ids of its memories the agent did not use; absent = every other memory it returned */
            unused?: string[];
        };
        LearnedWeightsReset: {
            agentId: string;
            resetAt: string;
        };
        RetrieveCacheCleared: {
            agentId: string;
            /** @enum {boolean} */
            cleared: true;
        };
        GithubDeliveryAccepted: {
            deliveryId: string;
            /** @enum {string} */
            status: "accepted" | "duplicate";
            pong?: boolean;
        };
        /**
         * @description The event's payload exactly as GitHub sends it (docs.github.com: webhook events and payloads); events memstream does not describe are stored and ignored with a reason.
         * @example {
         *       "action": "opened",
         *       "issue": {
         *         "number": 7,
         *         "title": "Checkout fails on Safari",
         *         "user": {
         *           "login": "octocat"
         *         }
         *       },
         *       "repository": {
         *         "full_name": "acme/api"
         *       },
         *       "sender": {
         *         "login": "octocat"
         *       }
         *     }
         */
        GithubEventPayload: {
            [key: string]: unknown;
        };
        GithubDelivery: {
            /** @description X-GitHub-Delivery */
            id: string;
            event: string;
            action: string | null;
            /** @enum {string} */
            status: "received" | "processed" | "ignored" | "failed";
            /** @description Why it was ignored or failed */
            reason: string | null;
            agentIds: string[];
            observations: number;
            attempts: number;
            receivedAt: string;
            processedAt: string | null;
        };
        GithubDeliveryRetry: {
            deliveryId: string;
            /** @enum {string} */
            status: "queued";
        };
        ReflectionRun: {
            /** @example ref_3n8x0q4w7f2k9d1c5b6a */
            id: string;
            agentId: string;
            /** @enum {string} */
            trigger: "threshold" | "manual";
            /** @enum {string} */
            status: "running" | "succeeded" | "failed";
            promptVersion: string | null;
            questions: string[];
            insightIds: string[];
            usage: {
                promptTokens: number;
                completionTokens: number;
                llmCalls: number;
            };
            error: string | null;
            startedAt: string;
            finishedAt: string | null;
        };
        AgentSettings: {
            agentId: string;
            reflectionThreshold: number | null;
            effectiveReflectionThreshold: number;
            retrieval: components["schemas"]["RetrievalDefaults"];
            effectiveRetrieval: components["schemas"]["Ranking"];
            lessons: components["schemas"]["LessonSettings"];
            effectiveLessons: {
                minOutcomes: number;
                similarity: number;
            };
            retention: components["schemas"]["RetentionPolicy"];
            learnWeights: boolean | null;
            effectiveLearnWeights: boolean;
            learned: components["schemas"]["LearnedWeights"];
            llmBudget: components["schemas"]["LlmBudgetSettings"];
            /** @description The daily limits in force (0 = unlimited) */
            effectiveLlmBudget: {
                dailyTokens: number;
                dailyCalls: number;
            };
            retrieveCacheTtlMs: number | null;
            /** @description The result cache's TTL in force (ms; 0 = off) */
            effectiveRetrieveCacheTtlMs: number;
            compaction: components["schemas"]["CompactionSettings"];
            /** @description The compaction settings in force (afterDays null = off) */
            effectiveCompaction: {
                afterDays: number | null;
                groupMax: number;
                promoteAfter: number;
            };
        };
        /** @description Retrieve defaults for this agent: used for fields a retrieve request leaves out */
        RetrievalDefaults: {
            /**
             * @description A named ranking (recency/importance/relevance weights, decay, relevance, time filter): paper = weights 1/1/1, 0.99 per hour, vector; reference = weights 0.5/2/3, 0.99 per hour, vector; balanced = weights 0.1/0.1/1, 0.998 per day, contextual, time filter, scale floors, versions, duplicates collapsed, subjects
             * @enum {string}
             */
            preset?: "paper" | "reference" | "balanced";
            weights?: {
                recency?: number;
                importance?: number;
                relevance?: number;
            };
            /** @description recency = decay^(time since last access in recencyUnit) */
            decay?: number;
            /**
             * @description The time unit decay applies per (paper: hour)
             * @enum {string}
             */
            recencyUnit?: "minute" | "hour" | "day" | "week";
            /**
             * @description vector (the paper's): cosine similarity to the query embedding; lexical: BM25 (k1 1.2, b 0.75) of the query's words; hybrid: 0.6·vector' + 0.4·lexical'; contextual: hybrid + 0.7·the better hybrid of the memory's two neighbours by createdAt (each only within an hour: the same conversation); windowed: contextual whose lexical part is BM25F with the words of up to 5 neighbours either side of the same conversation, the nearest weighted 0.5, each further one × 0.7, and whose cosine leaves out the question form (the agent's direction from its statements to its questions, with 10 of each; the strongest relevance alone). All but vector need query text and rank exactly
             * @enum {string}
             */
            relevance?: "vector" | "lexical" | "hybrid" | "contextual" | "windowed";
            /** @description α of hybrid, contextual and windowed relevance: α·vector' + (1 − α)·lexical' (default 0.6; presets may set their own) */
            vectorShare?: number;
            /** @description A time expression in the query (English: "on 9 May 2023", "in June", "last week", "yesterday", "in 2022"; relative to now) limits the candidates to memories created in that window, widened by 1 day on each side, unless none is in it. Exact mode only; the answer's ranking.timeWindow gives the window applied */
            timeFilter?: boolean;
            /** @description Scale recency over at least the decay of 30 recencyUnits and importance over at least 5 points, so a small spread stays small (off: plain min-max, the paper's) */
            scaleFloors?: boolean;
            /** @description For a present-state question (ranking.focus present: "Where does Alice live?"): among the best 10, a memory at least 0.55 cosine-similar to a better, older one takes its score (the newer version of a fact comes first); equal scores newest first. Needs a query vector */
            versions?: boolean;
            /** @description Duplicates take one place in the top k: memories of the same kind whose descriptions are equal but for case, spacing, punctuation and symbols are one hit, the best-ranked standing for the others (its `duplicates` counts those folded among the best k + 50 ranked). Off: every copy ranked on its own (the paper's) */
            collapseDuplicates?: boolean;
            /** @description A question naming someone (a capitalised word other than its first, English questions only: "What does Melanie do to destress?") lifts, among the best k + 50 ranked, each memory whose description starts with that name by 0.05 × the relevance weight (scores.subject). Off: the formula alone */
            subjects?: boolean;
        } | null;
        /** @description Lesson consolidation; a field left out takes its default */
        LessonSettings: {
            /** @description Similar outcomes of one task type before a lesson is written; default 3 */
            minOutcomes?: number;
            /** @description Cosine between task embeddings at or above which outcomes are the same task; default 0.65 (calibrated for use-lite-512) */
            similarity?: number;
        } | null;
        /**
         * @description What retention may delete. Never deleted: lessons, document sections, and memories a reflection or lesson cites. Vectors go with their memories.
         * @example {
         *       "maxMemories": 10000,
         *       "maxAgeDays": 90,
         *       "keepImportanceAtLeast": 8
         *     }
         */
        RetentionPolicy: {
            /** @description Delete the oldest deletable memories until the stream holds at most this many */
            maxMemories?: number;
            /** @description Delete deletable memories created more than this many days ago (fractions allowed) */
            maxAgeDays?: number;
            /** @description Never delete memories scored at least this important; unscored memories are kept too */
            keepImportanceAtLeast?: number;
        } | null;
        LearnedWeights: {
            /** @description The adopted weights; null until a fit passed the guardrails (or after a reset) */
            weights: {
                recency: number;
                importance: number;
                relevance: number;
            } | null;
            /** @description Feedback events the adopted weights were fitted on */
            events: number | null;
            /** @description Pairwise accuracy they gained on the held-out (newest) feedback over the weights before */
            heldOutGain: number | null;
            fittedAt: string | null;
            /** @description The last fit tried, adopted or not */
            lastFit: {
                at: string;
                events: number;
                heldOutEvents: number;
                heldOut: {
                    current: number;
                    proposed: number;
                    gain: number;
                };
                /** @description Recall of the used memories on the held-out feedback (each event's logged candidates re-ranked, its returned count kept), current and proposed; adopted only when it rises. Null: no held-out event used a memory */
                heldOutRecall?: {
                    current: number | null;
                    proposed: number | null;
                    gain: number | null;
                };
                proposed: {
                    recency: number;
                    importance: number;
                    relevance: number;
                };
                adopted: boolean;
                /** @description Why the guardrails refused it */
                refused: string | null;
            } | null;
            /** @description Feedback before it is not used (DELETE /learned-weights) */
            resetAt: string | null;
        };
        /** @description The agent's daily LLM budget. Past it importance is scored offline (importanceSource `budget:offline:…`), reflection and supersession wait for the next day, lessons take the template wording */
        LlmBudgetSettings: {
            /** @description Prompt plus completion tokens per UTC day, as the provider reports them; 0 = unlimited; absent = MEMSTREAM_LLM_DAILY_TOKENS */
            dailyTokens?: number;
            /** @description Chat completions per UTC day; 0 = unlimited; absent = MEMSTREAM_LLM_DAILY_CALLS */
            dailyCalls?: number;
        } | null;
        CompactionSettings: {
            /**
             * @description Observations older than this many days are compacted into summaries; null = off
             * @example 30
             */
            afterDays?: number | null;
            /** @description Most memories one summary stands for (a day and session split into equal parts); default 8 */
            groupMax?: number;
            /** @description Expansions after which an archived memory moves back to the ranked stream; 0 = never; default 3 */
            promoteAfter?: number;
        } | null;
        Outcome: components["schemas"]["Memory"] & {
            outcome: components["schemas"]["OutcomeFields"];
        };
        OutcomeFields: {
            task: string;
            taskType: string | null;
            success: boolean;
            strategy: string | null;
            error: string | null;
            durationMs: number | null;
        };
        NewOutcome: {
            /** @example Deploy the billing service to staging */
            task: string;
            /**
             * @description Groups outcomes for consolidation; lessons are per task type
             * @example deploy
             */
            taskType?: string;
            success: boolean;
            /** @example in-place restart */
            strategy?: string;
            /** @example port 8080 already in use */
            error?: string;
            durationMs?: number;
            /**
             * @description JSON object, at most 16384 bytes serialized and 32 levels deep; no NUL or lone surrogates in its strings
             * @example {
             *       "source": "github",
             *       "repository": "acme/api"
             *     }
             */
            metadata?: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When it happened (the memory's createdAt); default now
             * @example 2026-11-22T10:00:00Z
             */
            occurredAt?: string;
        };
        Lesson: {
            /** @description The lesson's memory id (stable across revisions) */
            id: string;
            agentId: string;
            taskType: string | null;
            /** @enum {string} */
            polarity: "heuristic" | "anti-pattern";
            description: string;
            /** @description Rule of succession over the leading strategy: (k+1)/(n+2) */
            confidence: number;
            /** @description 1 when written; +1 per consolidation that updated it */
            revision: number;
            stats: {
                outcomes: number;
                successes: number;
                strategies: components["schemas"]["StrategyStats"][];
            };
            /** @description The outcome memories it rests on (newest 100) */
            citations: string[];
            /** @description `template:v1` offline, else the prompt version (`lesson:v1`) */
            wording: string;
            importance: number | null;
            createdAt: string;
            /** @description When the current revision was written */
            updatedAt: string;
        };
        StrategyStats: {
            strategy: string | null;
            attempts: number;
            successes: number;
            failures: number;
            errors: {
                error: string;
                count: number;
            }[];
        };
        EnrichmentRetried: {
            importance: number;
            embedding: number;
        };
        ForgetReport: {
            dryRun: boolean;
            policy: components["schemas"]["RetentionPolicy"];
            /** @enum {string} */
            policySource: "request" | "agent";
            /** @description Memories deleted (dry run: that a run now would delete) */
            count: number;
            /** @description count by kind; kinds with none left out */
            byKind: {
                [key: string]: number;
            };
            /** @description Up to 20 of their ids, oldest first */
            sample: string[];
        };
        ForgetRequest: {
            /** @description Report what would be deleted without deleting; default false */
            dryRun?: boolean;
            policy?: components["schemas"]["RetentionPolicy"] & unknown;
        };
        MaintenanceReport: {
            compaction: {
                dryRun: boolean;
                before: string;
                /** @description Summaries written (dry run: that would be) */
                summaries: number;
                /** @description Memories moved to the archive tier (dry run: that would be) */
                archived: number;
                /** @description Stopped at the request's bound with more to compact: ask again */
                more: boolean;
            };
            tookMs: number;
        };
        MaintenanceRequest: {
            /** @description Count what compaction would do; default false */
            dryRun?: boolean;
            /**
             * Format: date-time
             * @description Compact observations created before this time; absent = the agent's compaction.afterDays before now
             * @example 2026-01-01T00:00:00Z
             */
            before?: string;
            /** @description Most memories one summary stands for; absent = the agent's compaction.groupMax */
            groupMax?: number;
        };
        ImportReport: {
            lines: number;
            memories: {
                added: number;
                existing: number;
            };
            /** @description Vectors written (of the memories added) */
            vectors: number;
            documents: {
                added: number;
                existing: number;
            };
            reflectionRuns: {
                added: number;
                existing: number;
            };
            /**
             * @description `added`: the file's settings were written; `kept`: the agent had its own; `none`: the file had none
             * @enum {string}
             */
            settings: "added" | "kept" | "none";
        };
        DocumentImport: {
            source: string;
            title: string | null;
            /** @enum {string} */
            format: "markdown" | "html" | "text";
            sections: number;
            tokens: number;
            importedAt: string;
            created: number;
            kept: number;
            deleted: number;
            derived: components["schemas"]["DerivedDeleted"];
            unchanged: boolean;
        };
        /**
         * @example {
         *       "source": "docs/deploy.md",
         *       "content": "# Deploying\n\nMerge to main; CI builds the image.\n\n## Rollback\n\nRedeploy the previous tag."
         *     }
         */
        NewDocument: {
            /** @example docs/getting-started.md */
            source: string;
            content: string;
            /**
             * @description Default: from the source's extension (.html/.htm → html, .txt → text), else markdown
             * @enum {string}
             */
            format?: "markdown" | "html" | "text";
            title?: string;
            /** @description Tokens per section (default 512) */
            maxTokens?: number;
            /**
             * @description JSON object, at most 16384 bytes serialized and 32 levels deep; no NUL or lone surrogates in its strings
             * @example {
             *       "source": "github",
             *       "repository": "acme/api"
             *     }
             */
            metadata?: {
                [key: string]: unknown;
            };
            /** @description Caller-side importance of every section; otherwise scored */
            importance?: number;
            /**
             * Format: date-time
             * @description ISO 8601 with an offset; years 0001-9999
             * @example 2026-11-22T10:00:00Z
             */
            createdAt?: string;
        };
        Document: {
            source: string;
            title: string | null;
            /** @enum {string} */
            format: "markdown" | "html" | "text";
            sections: number;
            tokens: number;
            importedAt: string;
        };
        GithubImport: {
            /** @example imp_3n8x0q4w7f2k9d1c5b6a */
            id: string;
            repo: string;
            agentIds: string[];
            since: string | null;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
            /** @description issues, pulls, releases or commits while running */
            phase: string | null;
            counts: {
                fetched: number;
                stored: number;
                duplicates: number;
                ignored: number;
                rateLimited: number;
            };
            attempts: number;
            error: string | null;
            createdAt: string;
            updatedAt: string;
            finishedAt: string | null;
        };
        /**
         * @example {
         *       "repo": "acme/api",
         *       "since": "2025-01-01T00:00:00Z"
         *     }
         */
        NewGithubImport: {
            /** @example acme/api */
            repo: string;
            /**
             * Format: date-time
             * @description Only what happened at or after this time
             * @example 2026-11-22T10:00:00Z
             */
            since?: string;
        };
        CreatedEventSubscription: components["schemas"]["EventSubscription"] & {
            secret: string;
        };
        /** @enum {string} */
        EventType: "memory.written" | "memory.enriched" | "memory.superseded" | "memory.deleted" | "reflection.written" | "lesson.written" | "agent.erased";
        EventSubscription: {
            id: string;
            agentId: string;
            url: string;
            events: components["schemas"]["EventType"][];
            description: string | null;
            /** @enum {string} */
            status: "active" | "disabled";
            consecutiveFailures: number;
            disabledReason: string | null;
            createdAt: string;
        };
        NewEventSubscription: {
            /**
             * @description http(s) URL events are POSTed to
             * @example https://hooks.example.com/memstream
             */
            url: string;
            /** @description Event types to send; absent = every type */
            events?: components["schemas"]["EventType"][];
            /** @description HMAC key of X-Memstream-Signature-256; absent = a random one, answered once */
            secret?: string;
            description?: string;
        };
        EventDelivery: {
            id: string;
            subscriptionId: string;
            eventId: string;
            event: components["schemas"]["EventType"];
            /** @enum {string} */
            status: "pending" | "delivered" | "failed" | "cancelled";
            attempts: number;
            lastStatusCode: number | null;
            lastError: string | null;
            nextAttemptAt: string | null;
            deliveredAt: string | null;
            createdAt: string;
            redeliveryOf: string | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listMemories: {
        parameters: {
            query?: {
                /** @description Comma-separated kinds */
                kind?: string;
                /** @description Comma-separated tiers: recent, summary, archive (what compaction moved behind summaries); default recent,summary */
                tiers?: string;
                /** @description ISO 8601 with an offset; years 0001-9999 */
                since?: string;
                /** @description ISO 8601 with an offset; years 0001-9999 */
                until?: string;
                /** @description The stream as it stood at this time: memories created at or before it, each with supersededBy/validUntil only when its replacement existed by then and lastAccessedAt as last known before it (else its createdAt) */
                asOf?: string;
                /** @description JSON object; memories whose metadata contains it */
                metadata?: string;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "memories": [
                     *         {
                     *           "id": "mem_3n8x0q4w7f2k9d1c5b6a",
                     *           "agentId": "npc-42",
                     *           "kind": "observation",
                     *           "description": "Isabella is planning a Valentine's Day party at Hobbs Cafe",
                     *           "createdAt": "2026-02-10T09:00:00.000Z",
                     *           "lastAccessedAt": "2026-02-10T09:00:00.000Z",
                     *           "importance": 6,
                     *           "importanceSource": "llm:gpt-4o-mini",
                     *           "embeddingModel": "use-lite-512",
                     *           "metadata": {
                     *             "location": "Hobbs Cafe"
                     *           },
                     *           "citations": [],
                     *           "supersededBy": null,
                     *           "validUntil": null,
                     *           "expiresAt": null,
                     *           "status": {
                     *             "importance": "ready",
                     *             "embedding": "ready"
                     *           }
                     *         }
                     *       ],
                     *       "nextCursor": "WyIyMDI2LTAyLTEwVDA5OjAwOjAwLjAwMFoiLCJtZW1fM244eDBxNHc3ZjJrOWQxYzViNmEiXQ"
                     *     }
                     */
                    "application/json": {
                        memories: components["schemas"]["Memory"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMemories: {
        parameters: {
            query?: never;
            header?: {
                /** @description `return=minimal` (RFC 7240): answer only the new ids in input order (`{ids}` for a batch, `{id}` for one memory) instead of every stored memory; the answer then carries `Preference-Applied: return=minimal`. Saves serializing and reading back up to 1,000 memories per batch. */
                prefer?: string;
            };
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "alice opened pull request #42: retry flaky uploads",
                 *       "metadata": {
                 *         "source": "github",
                 *         "repository": "acme/api"
                 *       }
                 *     }
                 */
                "application/json": {
                    memories: components["schemas"]["NewMemory"][];
                } | components["schemas"]["NewMemory"];
            };
        };
        responses: {
            /** @description Stored: the memory, or `{memories}` for a batch; with `Prefer: return=minimal`, `{id}` or `{ids}` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "mem_3n8x0q4w7f2k9d1c5b6a",
                     *       "agentId": "npc-42",
                     *       "kind": "observation",
                     *       "description": "Isabella is planning a Valentine's Day party at Hobbs Cafe",
                     *       "createdAt": "2026-02-10T09:00:00.000Z",
                     *       "lastAccessedAt": "2026-02-10T09:00:00.000Z",
                     *       "importance": 6,
                     *       "importanceSource": "llm:gpt-4o-mini",
                     *       "embeddingModel": "use-lite-512",
                     *       "metadata": {
                     *         "location": "Hobbs Cafe"
                     *       },
                     *       "citations": [],
                     *       "supersededBy": null,
                     *       "validUntil": null,
                     *       "expiresAt": null,
                     *       "status": {
                     *         "importance": "ready",
                     *         "embedding": "ready"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Memory"] | {
                        memories: components["schemas"]["Memory"][];
                    } | components["schemas"]["CreatedIds"] | components["schemas"]["CreatedId"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type is not application/json (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The memory */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "mem_3n8x0q4w7f2k9d1c5b6a",
                     *       "agentId": "npc-42",
                     *       "kind": "observation",
                     *       "description": "Isabella is planning a Valentine's Day party at Hobbs Cafe",
                     *       "createdAt": "2026-02-10T09:00:00.000Z",
                     *       "lastAccessedAt": "2026-02-10T09:00:00.000Z",
                     *       "importance": 6,
                     *       "importanceSource": "llm:gpt-4o-mini",
                     *       "embeddingModel": "use-lite-512",
                     *       "metadata": {
                     *         "location": "Hobbs Cafe"
                     *       },
                     *       "citations": [],
                     *       "supersededBy": null,
                     *       "validUntil": null,
                     *       "expiresAt": null,
                     *       "status": {
                     *         "importance": "ready",
                     *         "embedding": "ready"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Memory"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted, with what was derived from it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "mem_3n8x0q4w7f2k9d1c5b6a",
                     *       "kind": "observation",
                     *       "derived": {
                     *         "reflection": 2
                     *       }
                     *     }
                     */
                    "application/json": {
                        id: string;
                        kind: string;
                        derived: components["schemas"]["DerivedDeleted"];
                    };
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "importance": 8,
                 *       "metadata": {
                 *         "pinned": true
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["MemoryPatch"];
            };
        };
        responses: {
            /** @description The updated memory */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "mem_3n8x0q4w7f2k9d1c5b6a",
                     *       "agentId": "npc-42",
                     *       "kind": "observation",
                     *       "description": "Isabella is planning a Valentine's Day party at Hobbs Cafe",
                     *       "createdAt": "2026-02-10T09:00:00.000Z",
                     *       "lastAccessedAt": "2026-02-10T09:00:00.000Z",
                     *       "importance": 8,
                     *       "importanceSource": "llm:gpt-4o-mini",
                     *       "embeddingModel": "use-lite-512",
                     *       "metadata": {
                     *         "pinned": true
                     *       },
                     *       "citations": [],
                     *       "supersededBy": null,
                     *       "validUntil": null,
                     *       "expiresAt": null,
                     *       "status": {
                     *         "importance": "ready",
                     *         "embedding": "ready"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Memory"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type is not application/json (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemoryHistory: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of revisions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "memoryId": "mem_3n8x0q4w7f2k9d1c5b6a",
                     *       "revisions": [
                     *         {
                     *           "revision": 1,
                     *           "description": "Isabella is planning a Valentine's Day party at Hobbs Cafe",
                     *           "importance": 6,
                     *           "metadata": {
                     *             "location": "Hobbs Cafe"
                     *           },
                     *           "replacedAt": "2026-02-12T10:00:00.000Z"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": {
                        memoryId: string;
                        revisions: components["schemas"]["MemoryRevision"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteMemories: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "filter": {
                 *         "kinds": [
                 *           "observation"
                 *         ],
                 *         "metadata": {
                 *           "session": "s-17"
                 *         }
                 *       },
                 *       "dryRun": true
                 *     }
                 */
                "application/json": components["schemas"]["DeleteMemoriesRequest"];
            };
        };
        responses: {
            /** @description What was deleted, or with dryRun what matches */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "dryRun": false,
                     *       "count": 13,
                     *       "byKind": {
                     *         "observation": 12,
                     *         "reflection": 1
                     *       },
                     *       "derived": {
                     *         "reflection": 1
                     *       },
                     *       "more": false
                     *     }
                     */
                    "application/json": components["schemas"]["DeleteMemoriesReport"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The agent was erased while the delete ran (`conflict`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type is not application/json (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    eraseAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Erased */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deleted": 120,
                     *       "erasureId": "era_3n8x0q4w7f2k9d1c5b6a"
                     *     }
                     */
                    "application/json": {
                        deleted: number;
                        /** @description The receipt: GET /v1/agents/{agentId}/erasures/{id} */
                        erasureId: string;
                    };
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getErasureReceipt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The receipt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "era_3n8x0q4w7f2k9d1c5b6a",
                     *       "agentId": "npc-42",
                     *       "epoch": 1,
                     *       "erasedAt": "2026-02-14T09:00:00.000Z",
                     *       "rows": {
                     *         "memories": 120,
                     *         "memory_embeddings": 118,
                     *         "outcomes": 0,
                     *         "lesson_revisions": 0,
                     *         "memory_revisions": 3,
                     *         "reflection_runs": 2,
                     *         "agent_settings": 1,
                     *         "documents": 0,
                     *         "retrieval_log": 14
                     *       },
                     *       "memoriesByKind": {
                     *         "observation": 112,
                     *         "reflection": 8
                     *       },
                     *       "cancelled": {
                     *         "enrichment": 2,
                     *         "reflectionRuns": 0
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErasureReceipt"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentStats: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stats (zeros for an empty stream) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agentId": "npc-42",
                     *       "total": 120,
                     *       "byKind": {
                     *         "observation": 107,
                     *         "reflection": 8,
                     *         "plan": 0,
                     *         "document": 0,
                     *         "outcome": 4,
                     *         "lesson": 1,
                     *         "summary": 0
                     *       },
                     *       "tiers": {
                     *         "recent": 120,
                     *         "summary": 0,
                     *         "archive": 0
                     *       },
                     *       "importance": {
                     *         "pending": 2,
                     *         "ready": 118,
                     *         "failed": 0
                     *       },
                     *       "embedding": {
                     *         "pending": 3,
                     *         "ready": 117,
                     *         "failed": 0
                     *       },
                     *       "oldest": "2026-02-01T08:00:00.000Z",
                     *       "newest": "2026-02-13T17:55:00.000Z",
                     *       "forgotten": 0,
                     *       "retainedAt": null,
                     *       "llmBudget": {
                     *         "day": "2026-02-13",
                     *         "resetsAt": "2026-02-14T00:00:00.000Z",
                     *         "limits": {
                     *           "tokens": 200000,
                     *           "calls": null
                     *         },
                     *         "spent": {
                     *           "tokens": 48210,
                     *           "promptTokens": 45900,
                     *           "completionTokens": 2310,
                     *           "calls": 131
                     *         },
                     *         "remaining": {
                     *           "tokens": 151790,
                     *           "calls": null
                     *         },
                     *         "keys": [
                     *           {
                     *             "scope": "prefix:npc-",
                     *             "limits": {
                     *               "tokens": 2000000,
                     *               "calls": null
                     *             },
                     *             "spent": {
                     *               "tokens": 913400,
                     *               "promptTokens": 871050,
                     *               "completionTokens": 42350,
                     *               "calls": 2480
                     *             },
                     *             "remaining": {
                     *               "tokens": 1086600,
                     *               "calls": null
                     *             },
                     *             "exhausted": false
                     *           }
                     *         ],
                     *         "exhausted": false
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["AgentStats"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retrieveMemories: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "Who is coming to the party?",
                 *       "k": 10,
                 *       "weights": {
                 *         "relevance": 2
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["RetrieveRequest"];
            };
        };
        responses: {
            /** @description Best first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "retrievalId": "ret_3n8x0qk2m7v5c9d1f4h6",
                     *       "memories": [
                     *         {
                     *           "id": "mem_3n8x0q4w7f2k9d1c5b6a",
                     *           "agentId": "npc-42",
                     *           "kind": "observation",
                     *           "description": "Isabella is planning a Valentine's Day party at Hobbs Cafe",
                     *           "createdAt": "2026-02-10T09:00:00.000Z",
                     *           "lastAccessedAt": "2026-02-10T09:00:00.000Z",
                     *           "importance": 6,
                     *           "importanceSource": "llm:gpt-4o-mini",
                     *           "embeddingModel": "use-lite-512",
                     *           "metadata": {
                     *             "location": "Hobbs Cafe"
                     *           },
                     *           "citations": [],
                     *           "supersededBy": null,
                     *           "validUntil": null,
                     *           "expiresAt": null,
                     *           "status": {
                     *             "importance": "ready",
                     *             "embedding": "ready"
                     *           },
                     *           "score": 2.41,
                     *           "scores": {
                     *             "recency": 0.93,
                     *             "importance": 0.56,
                     *             "relevance": 0.92,
                     *             "lift": 0,
                     *             "subject": 0,
                     *             "similarity": null
                     *           },
                     *           "duplicates": 0
                     *         }
                     *       ],
                     *       "mode": "exact",
                     *       "freshness": {
                     *         "pending": 2,
                     *         "oldestPendingMs": 840,
                     *         "embeddedInline": 2
                     *       },
                     *       "ranking": {
                     *         "preset": "balanced",
                     *         "weights": {
                     *           "recency": 0.1,
                     *           "importance": 0.1,
                     *           "relevance": 1
                     *         },
                     *         "decay": 0.998,
                     *         "recencyUnit": "day",
                     *         "relevance": "contextual",
                     *         "vectorShare": 0.6,
                     *         "timeFilter": true,
                     *         "scaleFloors": true,
                     *         "versions": true,
                     *         "collapseDuplicates": true,
                     *         "subjects": true,
                     *         "source": {
                     *           "preset": "default",
                     *           "weights": "preset",
                     *           "decay": "preset",
                     *           "recencyUnit": "preset",
                     *           "relevance": "preset",
                     *           "vectorShare": "preset",
                     *           "timeFilter": "preset",
                     *           "scaleFloors": "preset",
                     *           "versions": "preset",
                     *           "collapseDuplicates": "preset",
                     *           "subjects": "preset"
                     *         },
                     *         "timeWindow": null,
                     *         "focus": "present",
                     *         "lift": "newer",
                     *         "superseded": 0,
                     *         "plan": "full",
                     *         "planReason": "relevance contextual: every memory scored",
                     *         "phases": {
                     *           "first": "stream",
                     *           "seeds": null,
                     *           "scored": 1240,
                     *           "steps": [
                     *             "neighbours",
                     *             "versions",
                     *             "duplicates"
                     *           ]
                     *         },
                     *         "rules": {
                     *           "language": "en",
                     *           "focus": true,
                     *           "timeFilter": true,
                     *           "subjects": true
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description Names this retrieve for feedback (POST /v1/agents/{agentId}/feedback): the returned memories and their scaled components are kept in the agent's retrieval log (MEMSTREAM_RETRIEVAL_LOG_MAX retrieves, MEMSTREAM_RETRIEVAL_LOG_DAYS days)
                         * @example ret_3n8x0qk2m7v5c9d1f4h6
                         */
                        retrievalId: string;
                        memories: components["schemas"]["ScoredMemory"][];
                        /**
                         * @description exact: the whole candidate set ranked by the formula; phased: the formula on seeds from the indexes (ranking.phases); fast: by the threshold search over indexes (ranking.plan says which statement)
                         * @enum {string}
                         */
                        mode: "exact" | "fast" | "phased";
                        ranking: components["schemas"]["RetrieveRanking"];
                        freshness: components["schemas"]["RetrieveFreshness"];
                        /** @description Present when the answer came from the result cache (an identical retrieve within the agent's `retrieveCacheTtlMs`, nothing written since): when the retrieve that ranked it ran. Its retrievalId is that retrieve's; `touch` still marks its memories accessed now */
                        cachedAt?: string;
                        context?: components["schemas"]["RetrieveContext"];
                    };
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type is not application/json (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The embedding provider answered with no usable vector (`invalid_provider_answer`) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    giveFeedback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "retrievalId": "ret_3n8x0qk2m7v5c9d1f4h6",
                 *       "used": [
                 *         "mem_5d1q0r2b7c9e3f4g6h8j"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Feedback"];
            };
        };
        responses: {
            /** @description Recorded */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "retrievalId": "ret_3n8x0qk2m7v5c9d1f4h6",
                     *       "used": 1,
                     *       "unused": 9,
                     *       "events": 12
                     *     }
                     */
                    "application/json": components["schemas"]["FeedbackRecorded"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type is not application/json (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resetLearnedWeights: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Forgotten */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agentId": "npc-42",
                     *       "resetAt": "2026-11-26T18:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["LearnedWeightsReset"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    clearRetrieveCache: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cleared */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agentId": "npc-42",
                     *       "cleared": true
                     *     }
                     */
                    "application/json": components["schemas"]["RetrieveCacheCleared"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveGithubWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body under the webhook's secret (one of `GITHUB_WEBHOOK_SECRET`) */
                "X-Hub-Signature-256": string;
                /** @description The event name, e.g. `issues`, `push`, `pull_request`, `ping` */
                "X-GitHub-Event": string;
                /** @description The delivery's GUID: a redelivery carries the same one, so it is stored once */
                "X-GitHub-Delivery": string;
                /** @description The webhook's id (not used) */
                "X-GitHub-Hook-ID"?: string;
                /** @description repository, organization, integration… (not used) */
                "X-GitHub-Hook-Installation-Target-Type"?: string;
                /** @description Its id (not used) */
                "X-GitHub-Hook-Installation-Target-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GithubEventPayload"];
                "application/x-www-form-urlencoded": {
                    /** @description The same JSON payload, as one form field */
                    payload: string;
                };
            };
        };
        responses: {
            /** @description A redelivery of a known delivery id, or a body already received under another delivery id (recorded as an ignored replay; nothing new is stored), or a ping */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deliveryId": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
                     *       "status": "duplicate"
                     *     }
                     */
                    "application/json": components["schemas"]["GithubDeliveryAccepted"];
                };
            };
            /** @description Stored; processing is queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deliveryId": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
                     *       "status": "accepted"
                     *     }
                     */
                    "application/json": components["schemas"]["GithubDeliveryAccepted"];
                };
            };
            /** @description Missing `X-GitHub-Event`/`X-GitHub-Delivery`, or a body that is not JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid `X-Hub-Signature-256` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body over GitHub's 26214400-byte payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A signed body whose Content-Type is neither JSON nor form-encoded (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `GITHUB_WEBHOOK_SECRET` is not configured: nothing is accepted */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable; GitHub redelivers later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listGithubDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                status?: "received" | "processed" | "ignored" | "failed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deliveries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deliveries": [
                     *         {
                     *           "id": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
                     *           "event": "pull_request",
                     *           "action": "opened",
                     *           "status": "processed",
                     *           "reason": null,
                     *           "agentIds": [
                     *             "github:acme/api"
                     *           ],
                     *           "observations": 1,
                     *           "attempts": 1,
                     *           "receivedAt": "2026-02-13T18:00:00.000Z",
                     *           "processedAt": "2026-02-13T18:00:01.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        deliveries: components["schemas"]["GithubDelivery"][];
                    };
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryGithubDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description X-GitHub-Delivery */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deliveryId": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
                     *       "status": "queued"
                     *     }
                     */
                    "application/json": components["schemas"]["GithubDeliveryRetry"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such delivery (or not routed to the key's agents) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The delivery is already processed or ignored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reflectAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The finished run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "run": {
                     *         "id": "ref_7c2m9x4q1w8e5r3t6y0u",
                     *         "agentId": "npc-42",
                     *         "trigger": "manual",
                     *         "status": "succeeded",
                     *         "promptVersion": "v1",
                     *         "questions": [
                     *           "What is Isabella preparing for?"
                     *         ],
                     *         "insightIds": [
                     *           "mem_9k2j4h6g8f0d1s3a5p7o"
                     *         ],
                     *         "usage": {
                     *           "promptTokens": 1840,
                     *           "completionTokens": 212,
                     *           "llmCalls": 2
                     *         },
                     *         "error": null,
                     *         "startedAt": "2026-02-13T18:00:00.000Z",
                     *         "finishedAt": "2026-02-13T18:00:04.000Z"
                     *       },
                     *       "insights": [
                     *         {
                     *           "id": "mem_9k2j4h6g8f0d1s3a5p7o",
                     *           "agentId": "npc-42",
                     *           "kind": "reflection",
                     *           "description": "Isabella is devoted to bringing the town together at Hobbs Cafe",
                     *           "createdAt": "2026-02-10T09:00:00.000Z",
                     *           "lastAccessedAt": "2026-02-10T09:00:00.000Z",
                     *           "importance": null,
                     *           "importanceSource": null,
                     *           "embeddingModel": null,
                     *           "metadata": {},
                     *           "citations": [
                     *             "mem_3n8x0q4w7f2k9d1c5b6a"
                     *           ],
                     *           "supersededBy": null,
                     *           "validUntil": null,
                     *           "expiresAt": null,
                     *           "status": {
                     *             "importance": "pending",
                     *             "embedding": "pending"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        run: components["schemas"]["ReflectionRun"];
                        insights: components["schemas"]["Memory"][];
                    };
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A reflection of this agent is already running (`details.runId`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The agent's daily LLM budget is spent (`llm_budget_exhausted`; `details.resetsAt` says when it refills) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No LLM is configured, so reflection is off (`not_configured`) */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The LLM call failed; the run is recorded as failed (`reflection_failed`) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listReflectionRuns: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Runs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "runs": [
                     *         {
                     *           "id": "ref_7c2m9x4q1w8e5r3t6y0u",
                     *           "agentId": "npc-42",
                     *           "trigger": "manual",
                     *           "status": "succeeded",
                     *           "promptVersion": "v1",
                     *           "questions": [
                     *             "What is Isabella preparing for?"
                     *           ],
                     *           "insightIds": [
                     *             "mem_9k2j4h6g8f0d1s3a5p7o"
                     *           ],
                     *           "usage": {
                     *             "promptTokens": 1840,
                     *             "completionTokens": 212,
                     *             "llmCalls": 2
                     *           },
                     *           "error": null,
                     *           "startedAt": "2026-02-13T18:00:00.000Z",
                     *           "finishedAt": "2026-02-13T18:00:04.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        runs: components["schemas"]["ReflectionRun"][];
                    };
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agentId": "npc-42",
                     *       "reflectionThreshold": 100,
                     *       "effectiveReflectionThreshold": 100,
                     *       "retrieval": null,
                     *       "effectiveRetrieval": {
                     *         "preset": "balanced",
                     *         "weights": {
                     *           "recency": 0.1,
                     *           "importance": 0.1,
                     *           "relevance": 1
                     *         },
                     *         "decay": 0.998,
                     *         "recencyUnit": "day",
                     *         "relevance": "contextual",
                     *         "vectorShare": 0.6,
                     *         "timeFilter": true,
                     *         "scaleFloors": true,
                     *         "versions": true,
                     *         "collapseDuplicates": true,
                     *         "subjects": true,
                     *         "source": {
                     *           "preset": "default",
                     *           "weights": "preset",
                     *           "decay": "preset",
                     *           "recencyUnit": "preset",
                     *           "relevance": "preset",
                     *           "vectorShare": "preset",
                     *           "timeFilter": "preset",
                     *           "scaleFloors": "preset",
                     *           "versions": "preset",
                     *           "collapseDuplicates": "preset",
                     *           "subjects": "preset"
                     *         }
                     *       },
                     *       "lessons": {
                     *         "minOutcomes": 3
                     *       },
                     *       "effectiveLessons": {
                     *         "minOutcomes": 3,
                     *         "similarity": 0.65
                     *       },
                     *       "retention": {
                     *         "maxMemories": 10000,
                     *         "keepImportanceAtLeast": 8
                     *       },
                     *       "learnWeights": null,
                     *       "effectiveLearnWeights": true,
                     *       "learned": {
                     *         "weights": null,
                     *         "events": null,
                     *         "heldOutGain": null,
                     *         "fittedAt": null,
                     *         "lastFit": null,
                     *         "resetAt": null
                     *       },
                     *       "llmBudget": {
                     *         "dailyTokens": 200000
                     *       },
                     *       "effectiveLlmBudget": {
                     *         "dailyTokens": 200000,
                     *         "dailyCalls": 0
                     *       },
                     *       "retrieveCacheTtlMs": null,
                     *       "effectiveRetrieveCacheTtlMs": 30000,
                     *       "compaction": {
                     *         "afterDays": 30
                     *       },
                     *       "effectiveCompaction": {
                     *         "afterDays": 30,
                     *         "groupMax": 8,
                     *         "promoteAfter": 3
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["AgentSettings"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateAgentSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "reflectionThreshold": 100
                 *     }
                 */
                "application/json": {
                    /** @description Summed importance that triggers a reflection; 0 = off; null = deployment default; absent = unchanged */
                    reflectionThreshold?: number | null;
                    /** @description The agent's retrieve defaults, replacing earlier ones; null = service default; absent = unchanged */
                    retrieval?: {
                        /**
                         * @description A named ranking (recency/importance/relevance weights, decay, relevance, time filter): paper = weights 1/1/1, 0.99 per hour, vector; reference = weights 0.5/2/3, 0.99 per hour, vector; balanced = weights 0.1/0.1/1, 0.998 per day, contextual, time filter, scale floors, versions, duplicates collapsed, subjects
                         * @enum {string}
                         */
                        preset?: "paper" | "reference" | "balanced";
                        weights?: {
                            recency?: number;
                            importance?: number;
                            relevance?: number;
                        };
                        /** @description recency = decay^(time since last access in recencyUnit) */
                        decay?: number;
                        /**
                         * @description The time unit decay applies per (paper: hour)
                         * @enum {string}
                         */
                        recencyUnit?: "minute" | "hour" | "day" | "week";
                        /**
                         * @description vector (the paper's): cosine similarity to the query embedding; lexical: BM25 (k1 1.2, b 0.75) of the query's words; hybrid: 0.6·vector' + 0.4·lexical'; contextual: hybrid + 0.7·the better hybrid of the memory's two neighbours by createdAt (each only within an hour: the same conversation); windowed: contextual whose lexical part is BM25F with the words of up to 5 neighbours either side of the same conversation, the nearest weighted 0.5, each further one × 0.7, and whose cosine leaves out the question form (the agent's direction from its statements to its questions, with 10 of each; the strongest relevance alone). All but vector need query text and rank exactly
                         * @enum {string}
                         */
                        relevance?: "vector" | "lexical" | "hybrid" | "contextual" | "windowed";
                        /** @description α of hybrid, contextual and windowed relevance: α·vector' + (1 − α)·lexical' (default 0.6; presets may set their own) */
                        vectorShare?: number;
                        /** @description A time expression in the query (English: "on 9 May 2023", "in June", "last week", "yesterday", "in 2022"; relative to now) limits the candidates to memories created in that window, widened by 1 day on each side, unless none is in it. Exact mode only; the answer's ranking.timeWindow gives the window applied */
                        timeFilter?: boolean;
                        /** @description Scale recency over at least the decay of 30 recencyUnits and importance over at least 5 points, so a small spread stays small (off: plain min-max, the paper's) */
                        scaleFloors?: boolean;
                        /** @description For a present-state question (ranking.focus present: "Where does Alice live?"): among the best 10, a memory at least 0.55 cosine-similar to a better, older one takes its score (the newer version of a fact comes first); equal scores newest first. Needs a query vector */
                        versions?: boolean;
                        /** @description Duplicates take one place in the top k: memories of the same kind whose descriptions are equal but for case, spacing, punctuation and symbols are one hit, the best-ranked standing for the others (its `duplicates` counts those folded among the best k + 50 ranked). Off: every copy ranked on its own (the paper's) */
                        collapseDuplicates?: boolean;
                        /** @description A question naming someone (a capitalised word other than its first, English questions only: "What does Melanie do to destress?") lifts, among the best k + 50 ranked, each memory whose description starts with that name by 0.05 × the relevance weight (scores.subject). Off: the formula alone */
                        subjects?: boolean;
                    } | null;
                    /** @description Lesson consolidation settings, replacing earlier ones; null = defaults; absent = unchanged */
                    lessons?: {
                        /** @description Similar outcomes of one task type before a lesson is written; default 3 */
                        minOutcomes?: number;
                        /** @description Cosine between task embeddings at or above which outcomes are the same task; default 0.65 (calibrated for use-lite-512) */
                        similarity?: number;
                    } | null;
                    /**
                     * @description Retention policy applied by the agent.retain job (every MEMSTREAM_RETENTION_INTERVAL_MS), replacing an earlier one; null = keep everything; absent = unchanged
                     * @example {
                     *       "maxMemories": 10000,
                     *       "maxAgeDays": 90,
                     *       "keepImportanceAtLeast": 8
                     *     }
                     */
                    retention?: {
                        /** @description Delete the oldest deletable memories until the stream holds at most this many */
                        maxMemories?: number;
                        /** @description Delete deletable memories created more than this many days ago (fractions allowed) */
                        maxAgeDays?: number;
                        /** @description Never delete memories scored at least this important; unscored memories are kept too */
                        keepImportanceAtLeast?: number;
                    } | null;
                    /** @description Whether weights learned from the agent's feedback (POST /feedback) are fitted and rank its retrieves (request weights still win); null = MEMSTREAM_LEARN_WEIGHTS; absent = unchanged */
                    learnWeights?: boolean | null;
                    /** @description Daily LLM limits, replacing earlier ones; null = the deployment defaults; absent = unchanged */
                    llmBudget?: {
                        /** @description Prompt plus completion tokens per UTC day, as the provider reports them; 0 = unlimited; absent = MEMSTREAM_LLM_DAILY_TOKENS */
                        dailyTokens?: number;
                        /** @description Chat completions per UTC day; 0 = unlimited; absent = MEMSTREAM_LLM_DAILY_CALLS */
                        dailyCalls?: number;
                    } | null;
                    /** @description How long identical retrieves may be answered from the result cache (ms; any write to the agent invalidates at once); 0 = off; null = MEMSTREAM_RETRIEVE_CACHE_TTL_MS; absent = unchanged */
                    retrieveCacheTtlMs?: number | null;
                    /** @description Compaction into summaries, run by the agent.retain job (every MEMSTREAM_RETENTION_INTERVAL_MS) and by POST …/maintenance, replacing earlier settings; null = off (the default); absent = unchanged */
                    compaction?: {
                        /**
                         * @description Observations older than this many days are compacted into summaries; null = off
                         * @example 30
                         */
                        afterDays?: number | null;
                        /** @description Most memories one summary stands for (a day and session split into equal parts); default 8 */
                        groupMax?: number;
                        /** @description Expansions after which an archived memory moves back to the ranked stream; 0 = never; default 3 */
                        promoteAfter?: number;
                    } | null;
                };
            };
        };
        responses: {
            /** @description The settings now in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agentId": "npc-42",
                     *       "reflectionThreshold": 100,
                     *       "effectiveReflectionThreshold": 100,
                     *       "retrieval": null,
                     *       "effectiveRetrieval": {
                     *         "preset": "balanced",
                     *         "weights": {
                     *           "recency": 0.1,
                     *           "importance": 0.1,
                     *           "relevance": 1
                     *         },
                     *         "decay": 0.998,
                     *         "recencyUnit": "day",
                     *         "relevance": "contextual",
                     *         "vectorShare": 0.6,
                     *         "timeFilter": true,
                     *         "scaleFloors": true,
                     *         "versions": true,
                     *         "collapseDuplicates": true,
                     *         "subjects": true,
                     *         "source": {
                     *           "preset": "default",
                     *           "weights": "preset",
                     *           "decay": "preset",
                     *           "recencyUnit": "preset",
                     *           "relevance": "preset",
                     *           "vectorShare": "preset",
                     *           "timeFilter": "preset",
                     *           "scaleFloors": "preset",
                     *           "versions": "preset",
                     *           "collapseDuplicates": "preset",
                     *           "subjects": "preset"
                     *         }
                     *       },
                     *       "lessons": {
                     *         "minOutcomes": 3
                     *       },
                     *       "effectiveLessons": {
                     *         "minOutcomes": 3,
                     *         "similarity": 0.65
                     *       },
                     *       "retention": {
                     *         "maxMemories": 10000,
                     *         "keepImportanceAtLeast": 8
                     *       },
                     *       "learnWeights": null,
                     *       "effectiveLearnWeights": true,
                     *       "learned": {
                     *         "weights": null,
                     *         "events": null,
                     *         "heldOutGain": null,
                     *         "fittedAt": null,
                     *         "lastFit": null,
                     *         "resetAt": null
                     *       },
                     *       "llmBudget": {
                     *         "dailyTokens": 200000
                     *       },
                     *       "effectiveLlmBudget": {
                     *         "dailyTokens": 200000,
                     *         "dailyCalls": 0
                     *       },
                     *       "retrieveCacheTtlMs": null,
                     *       "effectiveRetrieveCacheTtlMs": 30000,
                     *       "compaction": {
                     *         "afterDays": 30
                     *       },
                     *       "effectiveCompaction": {
                     *         "afterDays": 30,
                     *         "groupMax": 8,
                     *         "promoteAfter": 3
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["AgentSettings"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type is not application/json (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recordOutcome: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "task": "Deploy the billing service to staging",
                 *       "taskType": "deploy",
                 *       "success": false,
                 *       "strategy": "in-place restart",
                 *       "error": "port 8080 already in use",
                 *       "durationMs": 41000
                 *     }
                 */
                "application/json": components["schemas"]["NewOutcome"];
            };
        };
        responses: {
            /** @description Stored */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "mem_5d1s8k2p0w4q7x3c9v6b",
                     *       "agentId": "npc-42",
                     *       "kind": "outcome",
                     *       "description": "Failed task (deploy) \"Deploy the billing service to staging\" using in-place restart in 41 s: port 8080 already in use",
                     *       "createdAt": "2026-02-10T09:00:00.000Z",
                     *       "lastAccessedAt": "2026-02-10T09:00:00.000Z",
                     *       "importance": 6,
                     *       "importanceSource": "outcome",
                     *       "embeddingModel": null,
                     *       "metadata": {},
                     *       "citations": [],
                     *       "supersededBy": null,
                     *       "validUntil": null,
                     *       "expiresAt": null,
                     *       "status": {
                     *         "importance": "ready",
                     *         "embedding": "pending"
                     *       },
                     *       "outcome": {
                     *         "task": "Deploy the billing service to staging",
                     *         "taskType": "deploy",
                     *         "success": false,
                     *         "strategy": "in-place restart",
                     *         "error": "port 8080 already in use",
                     *         "durationMs": 41000
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Outcome"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type is not application/json (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listLessons: {
        parameters: {
            query?: {
                /** @description Groups outcomes for consolidation; lessons are per task type */
                taskType?: string;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Lessons */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "lessons": [
                     *         {
                     *           "id": "mem_8h3n6b1v9c4x2z7m5k0j",
                     *           "agentId": "npc-42",
                     *           "taskType": "deploy",
                     *           "polarity": "heuristic",
                     *           "description": "Lesson for deploy tasks like \"Deploy the billing service to staging\": blue-green deploy works (1 of 1 attempts succeeded). Avoid in-place restart: it failed 2 times with \"port 8080 already in use\".",
                     *           "confidence": 0.67,
                     *           "revision": 1,
                     *           "stats": {
                     *             "outcomes": 3,
                     *             "successes": 1,
                     *             "strategies": [
                     *               {
                     *                 "strategy": "in-place restart",
                     *                 "attempts": 2,
                     *                 "successes": 0,
                     *                 "failures": 2,
                     *                 "errors": [
                     *                   {
                     *                     "error": "port 8080 already in use",
                     *                     "count": 2
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "strategy": "blue-green deploy",
                     *                 "attempts": 1,
                     *                 "successes": 1,
                     *                 "failures": 0,
                     *                 "errors": []
                     *               }
                     *             ]
                     *           },
                     *           "citations": [
                     *             "mem_5d1s8k2p0w4q7x3c9v6b",
                     *             "mem_2f7g1h5j9k3l8z4x6c0v",
                     *             "mem_0q9w8e7r6t5y4u3i2o1p"
                     *           ],
                     *           "wording": "template:v1",
                     *           "importance": 8,
                     *           "createdAt": "2026-02-13T18:00:02.000Z",
                     *           "updatedAt": "2026-02-13T18:00:02.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        lessons: components["schemas"]["Lesson"][];
                    };
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryEnrichment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Fields put back to pending */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "importance": 2,
                     *       "embedding": 0
                     *     }
                     */
                    "application/json": components["schemas"]["EnrichmentRetried"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    forgetMemories: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "dryRun": true,
                 *       "policy": {
                 *         "maxAgeDays": 30,
                 *         "keepImportanceAtLeast": 8
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ForgetRequest"];
            };
        };
        responses: {
            /** @description What was deleted, or with dryRun what would be */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "dryRun": true,
                     *       "policy": {
                     *         "maxAgeDays": 30,
                     *         "keepImportanceAtLeast": 8
                     *       },
                     *       "policySource": "request",
                     *       "count": 412,
                     *       "byKind": {
                     *         "observation": 405,
                     *         "reflection": 7
                     *       },
                     *       "sample": [
                     *         "mem_3n8x0q4w7f2k9d1c5b6a",
                     *         "mem_8c2v5b1n7m4x0z9q3w6e"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ForgetReport"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type is not application/json (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    maintainAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "before": "2026-01-01T00:00:00Z"
                 *     }
                 */
                "application/json": components["schemas"]["MaintenanceRequest"];
            };
        };
        responses: {
            /** @description What compaction did, or with dryRun would do */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "compaction": {
                     *         "dryRun": false,
                     *         "before": "2026-01-01T00:00:00.000Z",
                     *         "summaries": 42,
                     *         "archived": 310,
                     *         "more": false
                     *       },
                     *       "tookMs": 412
                     *     }
                     */
                    "application/json": components["schemas"]["MaintenanceReport"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type is not application/json (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream, one JSON record per line */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {"type":"header","format":"memstream.stream","version":1,"agentId":"npc-1","exportedAt":"2026-02-13T18:00:00.000Z","embeddingModels":[{"model":"text-embedding-3-small","dimensions":1536,"vectors":1}],"memories":1,"settings":null}
                     *     {"type":"memory","id":"mem_3n8x0q4w7f2k9d1c5b6a","kind":"observation","description":"alice opened pull request #42","createdAt":"2026-02-10T09:00:00.123456Z","lastAccessedAt":"2026-02-12T10:00:00.000000Z","insertedAt":"2026-02-10T09:00:01.000000Z","importance":4,"importanceSource":"caller","embeddingModel":"text-embedding-3-small","metadata":{"source":"github"},"citations":[],"supersededBy":null,"validUntil":null,"promptVersion":null,"vectors":{"text-embedding-3-small":[0.01,-0.02]}}
                     *     {"type":"end","memories":1,"documents":0,"reflectionRuns":0}
                     */
                    "application/x-ndjson": string;
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    importAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {"type":"header","format":"memstream.stream","version":1,"agentId":"npc-1","exportedAt":"2026-02-13T18:00:00.000Z","embeddingModels":[{"model":"text-embedding-3-small","dimensions":1536,"vectors":1}],"memories":1,"settings":null}
                 *     {"type":"memory","id":"mem_3n8x0q4w7f2k9d1c5b6a","kind":"observation","description":"alice opened pull request #42","createdAt":"2026-02-10T09:00:00.123456Z","lastAccessedAt":"2026-02-12T10:00:00.000000Z","insertedAt":"2026-02-10T09:00:01.000000Z","importance":4,"importanceSource":"caller","embeddingModel":"text-embedding-3-small","metadata":{"source":"github"},"citations":[],"supersededBy":null,"validUntil":null,"promptVersion":null,"vectors":{"text-embedding-3-small":[0.01,-0.02]}}
                 *     {"type":"end","memories":1,"documents":0,"reflectionRuns":0}
                 */
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description Imported (or, for a re-run, found already there) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "lines": 3,
                     *       "memories": {
                     *         "added": 1,
                     *         "existing": 0
                     *       },
                     *       "vectors": 1,
                     *       "documents": {
                     *         "added": 0,
                     *         "existing": 0
                     *       },
                     *       "reflectionRuns": {
                     *         "added": 0,
                     *         "existing": 0
                     *       },
                     *       "settings": "none"
                     *     }
                     */
                    "application/json": components["schemas"]["ImportReport"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The agent was erased while the import ran; nothing was written (`conflict`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body over 34359738368 bytes (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type is not application/x-ndjson (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDocuments: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The `next` of the previous page */
                after?: string;
            };
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "documents": [
                     *         {
                     *           "source": "docs/deploy.md",
                     *           "title": "Deploying",
                     *           "format": "markdown",
                     *           "sections": 2,
                     *           "tokens": 31,
                     *           "importedAt": "2026-02-13T18:00:00.000Z"
                     *         }
                     *       ],
                     *       "next": null
                     *     }
                     */
                    "application/json": {
                        documents: components["schemas"]["Document"][];
                        next: string | null;
                    };
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    importDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewDocument"];
            };
        };
        responses: {
            /** @description Imported (or unchanged) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "source": "docs/deploy.md",
                     *       "title": "Deploying",
                     *       "format": "markdown",
                     *       "sections": 2,
                     *       "tokens": 31,
                     *       "created": 2,
                     *       "kept": 0,
                     *       "deleted": 0,
                     *       "derived": {},
                     *       "unchanged": false,
                     *       "importedAt": "2026-02-13T18:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentImport"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type is not application/json (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDocument: {
        parameters: {
            query: {
                source: string;
            };
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted (sections removed) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "source": "docs/deploy.md",
                     *       "deleted": 2,
                     *       "derived": {
                     *         "reflection": 1
                     *       }
                     *     }
                     */
                    "application/json": {
                        source: string;
                        deleted: number;
                        derived: components["schemas"]["DerivedDeleted"];
                    };
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startGithubImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewGithubImport"];
            };
        };
        responses: {
            /** @description Queued (or resumed); follow it with GET …/imports/github/{id} */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "imp_3n8x0q4w7f2k9d1c5b6a",
                     *       "repo": "acme/api",
                     *       "agentIds": [
                     *         "github:acme/api"
                     *       ],
                     *       "since": "2025-01-01T00:00:00.000Z",
                     *       "status": "running",
                     *       "phase": "pulls",
                     *       "counts": {
                     *         "fetched": 240,
                     *         "stored": 231,
                     *         "duplicates": 6,
                     *         "ignored": 3,
                     *         "rateLimited": 0
                     *       },
                     *       "attempts": 1,
                     *       "error": null,
                     *       "createdAt": "2026-11-22T10:00:00.000Z",
                     *       "updatedAt": "2026-11-22T10:01:30.000Z",
                     *       "finishedAt": null
                     *     }
                     */
                    "application/json": components["schemas"]["GithubImport"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type is not application/json (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getGithubImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The import */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "imp_3n8x0q4w7f2k9d1c5b6a",
                     *       "repo": "acme/api",
                     *       "agentIds": [
                     *         "github:acme/api"
                     *       ],
                     *       "since": "2025-01-01T00:00:00.000Z",
                     *       "status": "running",
                     *       "phase": "pulls",
                     *       "counts": {
                     *         "fetched": 240,
                     *         "stored": 231,
                     *         "duplicates": 6,
                     *         "ignored": 3,
                     *         "rateLimited": 0
                     *       },
                     *       "attempts": 1,
                     *       "error": null,
                     *       "createdAt": "2026-11-22T10:00:00.000Z",
                     *       "updatedAt": "2026-11-22T10:01:30.000Z",
                     *       "finishedAt": null
                     *     }
                     */
                    "application/json": components["schemas"]["GithubImport"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEventSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Subscriptions, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "subscriptions": [
                     *         {
                     *           "id": "sub_3n8x0q4w7f2k9d1c5b6a",
                     *           "agentId": "github:acme/api",
                     *           "url": "https://hooks.example.com/memstream",
                     *           "events": [
                     *             "memory.written",
                     *             "memory.deleted",
                     *             "agent.erased"
                     *           ],
                     *           "description": "audit log",
                     *           "status": "active",
                     *           "consecutiveFailures": 0,
                     *           "disabledReason": null,
                     *           "createdAt": "2026-11-29T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        subscriptions: components["schemas"]["EventSubscription"][];
                    };
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEventSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/memstream",
                 *       "events": [
                 *         "memory.written",
                 *         "memory.deleted",
                 *         "agent.erased"
                 *       ],
                 *       "description": "audit log"
                 *     }
                 */
                "application/json": components["schemas"]["NewEventSubscription"];
            };
        };
        responses: {
            /** @description Subscribed; `secret` is shown this once */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "sub_3n8x0q4w7f2k9d1c5b6a",
                     *       "agentId": "github:acme/api",
                     *       "url": "https://hooks.example.com/memstream",
                     *       "events": [
                     *         "memory.written",
                     *         "memory.deleted",
                     *         "agent.erased"
                     *       ],
                     *       "description": "audit log",
                     *       "status": "active",
                     *       "consecutiveFailures": 0,
                     *       "disabledReason": null,
                     *       "createdAt": "2026-11-29T12:00:00.000Z",
                     *       "secret": "whsec_9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedEventSubscription"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type is not application/json (`unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEventSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "sub_3n8x0q4w7f2k9d1c5b6a",
                     *       "agentId": "github:acme/api",
                     *       "url": "https://hooks.example.com/memstream",
                     *       "events": [
                     *         "memory.written",
                     *         "memory.deleted",
                     *         "agent.erased"
                     *       ],
                     *       "description": "audit log",
                     *       "status": "active",
                     *       "consecutiveFailures": 0,
                     *       "disabledReason": null,
                     *       "createdAt": "2026-11-29T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["EventSubscription"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEventSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "sub_3n8x0q4w7f2k9d1c5b6a",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": {
                        id: string;
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEventDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                status?: "pending" | "delivered" | "failed" | "cancelled";
                before?: string;
            };
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deliveries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deliveries": [
                     *         {
                     *           "id": "evd_0c1f9e2a7b3d4c5e8f6a1b2c3d4e5f60",
                     *           "subscriptionId": "sub_3n8x0q4w7f2k9d1c5b6a",
                     *           "eventId": "evt_5b2e8c1d9f0a4b3c8d7e6f5a4b3c2d1e",
                     *           "event": "memory.written",
                     *           "status": "pending",
                     *           "attempts": 1,
                     *           "lastStatusCode": 500,
                     *           "lastError": "HTTP 500: upstream unavailable",
                     *           "nextAttemptAt": "2026-11-29T12:01:00.000Z",
                     *           "deliveredAt": null,
                     *           "createdAt": "2026-11-29T12:00:00.000Z",
                     *           "redeliveryOf": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        deliveries: components["schemas"]["EventDelivery"][];
                    };
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redeliverEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description URL-encode `/` as %2F */
                agentId: string;
                subscriptionId: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "evd_7d1e2f3a4b5c6d7e8f9a0b1c2d3e4f50",
                     *       "subscriptionId": "sub_3n8x0q4w7f2k9d1c5b6a",
                     *       "eventId": "evt_5b2e8c1d9f0a4b3c8d7e6f5a4b3c2d1e",
                     *       "event": "memory.written",
                     *       "status": "pending",
                     *       "attempts": 0,
                     *       "lastStatusCode": null,
                     *       "lastError": null,
                     *       "nextAttemptAt": "2026-11-29T12:01:00.000Z",
                     *       "deliveredAt": null,
                     *       "createdAt": "2026-11-29T12:00:00.000Z",
                     *       "redeliveryOf": "evd_0c1f9e2a7b3d4c5e8f6a1b2c3d4e5f60"
                     *     }
                     */
                    "application/json": components["schemas"]["EventDelivery"];
                };
            };
            /** @description Invalid input; `details.field` names the field (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key, when keys are configured (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found, or the agent is outside the key's agent prefix (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The delivery is pending or cancelled, or the subscription is disabled (`conflict`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged with the request id; no internals returned (`internal`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database or the model provider is unreachable; retry later (`unavailable`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
