import { loadConfig } from "../config";
import { openDatabase } from "../db/client";

// `npm run db:migrate`: applies pending migrations to the configured database and exits.
const config = loadConfig();
const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: config.dataDir,
  distributed: config.distributed,
});
try {
  await database.migrate();
  console.warn(`migrations applied (${database.kind})`);
} finally {
  await database.close();
}
