// The conformance suite's bundle imports globSync from "fs", which Node 22
// added; on Node 20 the import alone kills the process. Only its tier-check
// command calls it, so a loader hook points the bundle's fs import at a shim
// that re-exports node:fs and adds a globSync that refuses to run.
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);
