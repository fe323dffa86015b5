/**
 * Keeps the pipeline's layering true: file → loaded flow → resolved request
 * → response → assertion results → run result → reports. Each module of
 * `lib/` belongs to a layer and may import only modules of its own layer or
 * lower ones; `lib/` never imports the CLI. The import graph comes from
 * `deno info --json`, so it is the graph Deno really builds.
 *
 * Run: `deno run -A scripts/check_layers.ts` (CI runs it through
 * tests/layers_test.ts). A new module must be given a layer here.
 *
 * @module
 */
import { denoInfo } from "./deno_info.ts";

/**
 * The layers, lowest first. A pattern ending in `/` holds a folder.
 *
 * @example
 * ```ts
 * import { LAYERS } from "./check_layers.ts";
 * if (LAYERS[0].name !== "base") throw new Error();
 * ```
 */
export const LAYERS: { name: string; modules: string[] }[] = [
  {
    // Leaf helpers and the result model every later stage fills in.
    name: "base",
    modules: [
      "errors.ts",
      "internal_error.ts",
      "bounded_cache.ts",
      "on_demand.ts",
      "own_property.ts",
      "duration.ts",
      "limits.ts",
      "regex.ts",
      "suggest.ts",
      "json_head.ts",
      "version.ts",
      "compare.ts",
      "tags.ts",
      "json_value.ts",
      "order.ts",
      "poll.ts",
      "filter.ts",
      "spill.ts",
      "result.ts",
      "report/reporter.ts",
      "report/queued.ts",
      "report/terminal.ts",
      "secrets/names.ts",
      "secrets/decode.ts",
      "secrets/substring_table.ts",
      "secrets/redactor.ts",
      "secrets/userinfo.ts",
      "redact.ts",
      // The one small I/O module: the CLI's and the suite's reads and writes.
      "io.ts",
      // Whether the run's HTTP client can be built, asked before anything is sent.
      "client_check.ts",
    ],
  },
  // The flow model: expressions, paths, the loaded flow's types.
  {
    name: "model",
    modules: [
      "expr.ts",
      "path_engine.ts",
      "path.ts",
      "operators.ts",
      "flow.ts",
      "secrets/discover.ts",
    ],
  },
  // File → loaded flow, and which files make a run.
  {
    name: "load",
    modules: [
      "load.ts",
      "load/",
      "data_file.ts",
      // --vars-file is read with the same YAML parser as the flows.
      "var_files.ts",
      "flow_cache.ts",
      "includes.ts",
      "schema_check.ts",
      "xml_query.ts",
      "shard.ts",
      "shard_time.ts",
      "suite.ts",
    ],
  },
  // Resolved request → response → assertion results.
  {
    name: "exchange",
    modules: [
      "response.ts",
      "capture.ts",
      "url.ts",
      "cookie_jar.ts",
      "redirect.ts",
      "deadlines.ts",
      "http_insecure.ts",
      "http.ts",
      "curl.ts",
      "assert.ts",
    ],
  },
  // Steps and flows → run result; JSON reports of shards → one run result.
  { name: "run", modules: ["run.ts", "run/", "invalid_run.ts", "merge.ts"] },
  // Run result → reports; HAR → flow text (a branch of its own).
  { name: "output", modules: ["report/", "convert/"] },
  // The library's entry over all of it.
  { name: "api", modules: ["api.ts"] },
];

/** The layer index of a module path relative to `lib/`, or -1 when it has none. */
export function layerOf(module: string): number {
  let found = -1;
  let longest = -1;
  LAYERS.forEach((layer, i) => {
    for (const m of layer.modules) {
      const hit = m.endsWith("/") ? module.startsWith(m) : module === m;
      if (hit && m.length > longest) {
        found = i;
        longest = m.length;
      }
    }
  });
  return found;
}

/**
 * The problems of an import graph (module → modules it imports, paths
 * relative to the project root): imports that point up the pipeline,
 * `lib/` modules that import the CLI, and modules with no layer.
 *
 * @example
 * ```ts
 * import { layerViolations } from "./check_layers.ts";
 * const ok = layerViolations(new Map([["lib/run.ts", ["lib/http.ts", "lib/result.ts"]]]));
 * if (ok.length !== 0) throw new Error(ok.join("\n"));
 * const bad = layerViolations(new Map([["lib/http.ts", ["lib/run.ts"]]]));
 * if (!bad[0].startsWith("lib/http.ts (exchange) imports lib/run.ts (run)")) throw new Error(bad[0]);
 * ```
 */
export function layerViolations(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [from, imports] of graph) {
    if (!from.startsWith("lib/")) continue;
    const own = layerOf(from.slice(4));
    if (own === -1) {
      out.push(`${from} has no layer: add it to LAYERS in scripts/check_layers.ts.`);
      continue;
    }
    for (const to of imports) {
      if (to === "cli.ts" || to.startsWith("cli/")) {
        out.push(`${from} imports ${to}: lib/ must not depend on the CLI.`);
        continue;
      }
      if (!to.startsWith("lib/")) continue;
      const theirs = layerOf(to.slice(4));
      if (theirs > own) {
        out.push(
          `${from} (${LAYERS[own].name}) imports ${to} (${
            LAYERS[theirs].name
          }), which comes later in the pipeline: move the shared piece down, or pass it in.`,
        );
      }
    }
  }
  return out.sort();
}

/** The import graph of the project's entry points, from `deno info --json`. */
export async function importGraph(roots: string[]): Promise<Map<string, string[]>> {
  const base = new URL("../", import.meta.url).href;
  const graph = new Map<string, string[]>();
  for (const root of roots) {
    const info = await denoInfo(root);
    for (const m of info.modules) {
      const spec: string = m.specifier ?? "";
      if (!spec.startsWith(base)) continue;
      const deps: string[] = [];
      for (const d of m.dependencies ?? []) {
        for (const s of [d.code?.specifier, d.type?.specifier]) {
          if (typeof s === "string" && s.startsWith(base)) deps.push(s.slice(base.length));
        }
      }
      graph.set(spec.slice(base.length), deps);
    }
  }
  return graph;
}

if (import.meta.main) {
  const problems = layerViolations(await importGraph(["mod.ts", "cli.ts"]));
  for (const p of problems) console.error(p);
  if (problems.length > 0) Deno.exit(1);
  console.log("The imports follow the pipeline's layers.");
}
