-- The result cache's token trigger of migration 0031, in statements Citus can run (docs/adr/0011-scale-out.md):
-- it reads its transition table into an array first and inserts from that, as migration 0018 did for
-- the lexicon triggers. Same tokens as before; an INSERT ... SELECT reading the transition table
-- failed every write on Citus ("executor could not find named tuplestore").
CREATE OR REPLACE FUNCTION memstream_agents_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE v_agents text[];
BEGIN
  SELECT array_agg(DISTINCT agent_id ORDER BY agent_id) INTO v_agents FROM changed_rows;
  INSERT INTO agent_generations (agent_id, generation)
  SELECT a, gen_random_uuid() FROM unnest(v_agents) AS a ORDER BY a
  ON CONFLICT (agent_id) DO UPDATE SET generation = excluded.generation;
  RETURN NULL;
END
$$;
