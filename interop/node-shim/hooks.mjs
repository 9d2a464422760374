// Resolve hook: "fs" and "node:fs" imported from the suite's bundle go to
// fs-shim.mjs; every other import, and every import from the shim itself,
// resolves as usual.
const shim = new URL("./fs-shim.mjs", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const fromShim = context.parentURL === shim;
  const fromBundle = context.parentURL?.includes("/@modelcontextprotocol/conformance/");
  if (!fromShim && fromBundle && (specifier === "fs" || specifier === "node:fs")) {
    return { url: shim, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
