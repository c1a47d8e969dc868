import { defineConfig } from "drizzle-kit";

// Only `db:generate` uses this; migrations are applied by src/db/migrate.ts at start-up.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema/index.ts",
  out: "./migrations",
  casing: "snake_case",
});
