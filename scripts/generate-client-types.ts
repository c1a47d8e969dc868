import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { CLIENT_TYPES_PATH, generateClientTypes } from "./client-types";

// `npm run client:generate`: regenerates the client's types after an API change.
mkdirSync(dirname(CLIENT_TYPES_PATH), { recursive: true });
writeFileSync(CLIENT_TYPES_PATH, await generateClientTypes());
console.error(`client types written to ${CLIENT_TYPES_PATH}`);
