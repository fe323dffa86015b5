/**
 * Every module a module loads before it runs: the specifiers reached from it
 * through static imports (dynamic ones are left out), from `deno info --json`.
 * Tests use it to keep `node:` builtins, which start Deno's Node layer, off
 * the path to the first request.
 */
export async function staticImports(module: URL): Promise<Set<string>> {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", module.href],
    stdout: "piped",
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
  }).output();
  if (!info.success) throw new Error(`deno info failed for ${module.href}`);
  const graph = JSON.parse(new TextDecoder().decode(info.stdout)) as {
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
    }[];
  };
  const bySpecifier = new Map(graph.modules.map((m) => [m.specifier, m]));
  const seen = new Set([module.href]);
  const todo = [module.href];
  while (todo.length > 0) {
    for (const dependency of bySpecifier.get(todo.pop()!)?.dependencies ?? []) {
      const to = dependency.code?.specifier;
      if (to && !dependency.isDynamic && !seen.has(to)) seen.add(to) && todo.push(to);
    }
  }
  return seen;
}

/** The `node:` builtins among a module's static imports, direct or not. */
export async function eagerNodeImports(module: URL): Promise<string[]> {
  return [...await staticImports(module)].filter((s) => s.startsWith("node:"));
}
