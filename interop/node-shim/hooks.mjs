// Resolve hook: "fs" and "node:fs" imported from the suite's bundle go to
// fs-shim.mjs; every other import, and every import from the shim itself,
// resolves as usual. The suite is installed twice (package.json): under its
// own name (0.1.16) and under the alias conformance-next (0.2.0-alpha.12).
const shim = new URL("./fs-shim.mjs", import.meta.url).href;
const suiteDirs = ["/@modelcontextprotocol/conformance/", "/node_modules/conformance-next/"];

export async function resolve(specifier, context, nextResolve) {
  const fromShim = context.parentURL === shim;
  const parent = context.parentURL ?? "";
  const fromBundle = suiteDirs.some((d) => parent.includes(d));
  if (!fromShim && fromBundle && (specifier === "fs" || specifier === "node:fs")) {
    return { url: shim, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
