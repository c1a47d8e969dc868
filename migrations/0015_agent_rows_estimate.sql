-- The planner's estimate of an agent's memories: the share of `memories` its id holds among the
-- most common values of `agent_id` in pg_stats, times the table's rows (NULL when the id is not
-- among them or the table was never analyzed). Retrieve uses it to decide whether a whole-stream
-- statement is worth parallel workers (src/memory/retrieve/agent-state.ts); it never changes a
-- result. A PL/pgSQL function so its plan is cached per connection: the same lookup as a
-- sub-select costs ~0.5 ms of planning (pg_stats is a view of four catalogs) on every retrieve.
CREATE OR REPLACE FUNCTION memstream_agent_rows_estimate(agent text) RETURNS float8
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT s.most_common_freqs[array_position(s.most_common_vals::text::text[], agent)] * c.reltuples
    FROM pg_stats s JOIN pg_class c ON c.oid = 'memories'::regclass
    WHERE s.schemaname = current_schema() AND s.tablename = 'memories' AND s.attname = 'agent_id'
  );
END
$$;
