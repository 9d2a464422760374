// node:fs as it is, plus the one export Node 20 lacks.
import fs from "node:fs";

export * from "node:fs";
export default fs;

export function globSync() {
  throw new Error("globSync needs Node 22; mcpwire's shim does not provide it");
}
