import { defineConfig } from "drizzle-kit";

// Only `db:generate` uses this; migrations are applied at start-up (src/db/client.ts) or by `npm run db:migrate`.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema/index.ts",
  out: "./migrations",
  casing: "snake_case",
});
