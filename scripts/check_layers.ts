/**
 * Keeps the folders the architecture: `lib/` holds one folder per stage of
 * the pipeline, lowest first in {@linkcode STAGES}, and `api.ts`. A module may
 * import its own folder and folders listed before it (type-only imports
 * count); no import cycle, not even inside a folder; no file sits beside a
 * folder of the same stem; only `lib/io/` names `Deno.*`; only `lib/http/`
 * (and a step kind's own folder, `lib/kinds/<kind>/`) calls `fetch` or names `node:http`, `node:https`, `node:tls` or `node:net`;
 * `lib/` never imports the CLI. The import graph comes from
 * `deno info --json`, so it is the graph Deno really builds; the `Deno.*` and
 * network rules read the syntax tree (the `typescript` package, a
 * development tool only).
 *
 * Run: `deno run -A scripts/check_layers.ts` (`deno task check` does, and CI
 * through tests/layers_test.ts). A new stage is a new entry in `STAGES`; a new
 * file needs nothing.
 *
 * @module
 */
import ts from "typescript";
import { denoInfo } from "./deno_info.ts";

/**
 * The stages, lowest first: the folders of `lib/`. `api` is `lib/api.ts`.
 *
 * @example
 * ```ts
 * import { STAGES } from "./check_layers.ts";
 * if (STAGES[0] !== "_util" || STAGES.at(-1) !== "api") throw new Error();
 * ```
 */
export const STAGES = [
  "_util",
  "model",
  "expr",
  "select",
  "secrets",
  "io",
  "kinds",
  "load",
  "http",
  "check",
  "run",
  "report",
  "convert",
  "export",
  "api",
] as const;

/**
 * The stage of a path relative to the project root, or undefined when it is
 * not a module of a stage (the CLI, scripts, a file loose in `lib/`).
 *
 * @example
 * ```ts
 * import { stageOf } from "./check_layers.ts";
 * if (stageOf("lib/http/send.ts") !== "http" || stageOf("lib/api.ts") !== "api") throw new Error();
 * if (stageOf("lib/loose.ts") !== undefined || stageOf("cli/run.ts") !== undefined) throw new Error();
 * ```
 */
export function stageOf(path: string): string | undefined {
  if (path === "lib/api.ts") return "api";
  const match = /^lib\/([^/]+)\//.exec(path);
  return match && (STAGES as readonly string[]).includes(match[1]) ? match[1] : undefined;
}

/**
 * The problems of an import graph (module → modules it imports, paths
 * relative to the project root): modules of `lib/` outside every stage,
 * imports that point up the pipeline, and `lib/` modules that import the CLI.
 *
 * @example
 * ```ts
 * import { layerViolations } from "./check_layers.ts";
 * const ok = layerViolations(new Map([["lib/run/flows.ts", ["lib/http/send.ts"]]]));
 * if (ok.length !== 0) throw new Error(ok.join("\n"));
 * const bad = layerViolations(new Map([["lib/http/send.ts", ["lib/run/flows.ts"]]]));
 * if (!bad[0].startsWith("lib/http/send.ts (http) imports lib/run/flows.ts (run)")) throw new Error(bad[0]);
 * ```
 */
export function layerViolations(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [from, imports] of graph) {
    if (!from.startsWith("lib/")) continue;
    const own = stageOf(from);
    if (own === undefined) {
      out.push(
        `${from} is in no stage: move it into one of the folders of lib/ (${STAGES.join(", ")}).`,
      );
      continue;
    }
    for (const to of imports) {
      if (to === "cli.ts" || to.startsWith("cli/")) {
        out.push(`${from} imports ${to}: lib/ must not depend on the CLI.`);
        continue;
      }
      const theirs = stageOf(to);
      if (theirs === undefined) continue;
      if (STAGES.indexOf(theirs as typeof STAGES[number]) > STAGES.indexOf(own as never)) {
        out.push(
          `${from} (${own}) imports ${to} (${theirs}), which comes later in the pipeline: ` +
            `move the shared piece down, or pass it in.`,
        );
      }
    }
  }
  return out.sort();
}

/**
 * The import cycles among the modules of a graph, each as its modules
 * sorted (Tarjan's strongly connected components; a module importing itself
 * is a cycle too).
 *
 * @example
 * ```ts
 * import { importCycles } from "./check_layers.ts";
 * const graph = new Map([["a.ts", ["b.ts"]], ["b.ts", ["a.ts"]], ["c.ts", ["a.ts"]]]);
 * if (JSON.stringify(importCycles(graph)) !== '[["a.ts","b.ts"]]') throw new Error();
 * ```
 */
export function importCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) {
      cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => a[0] < b[0] ? -1 : 1);
}

/**
 * Files that sit beside a folder of the same stem (`load.ts` beside
 * `load/`), among the given paths: which one holds a concept is then a guess.
 *
 * @example
 * ```ts
 * import { stemClashes } from "./check_layers.ts";
 * const found = stemClashes(["lib/load.ts", "lib/load/steps.ts", "lib/run/mod.ts"]);
 * if (found.length !== 1 || !found[0].startsWith("lib/load.ts sits beside lib/load/")) throw new Error();
 * ```
 */
export function stemClashes(paths: string[]): string[] {
  const folders = new Set(paths.map((p) => p.slice(0, p.lastIndexOf("/") + 1)));
  const out: string[] = [];
  for (const path of paths) {
    const folder = path.replace(/\.[a-z]+$/, "/");
    if (folder !== path && [...folders].some((f) => f.startsWith(folder))) {
      out.push(`${path} sits beside ${folder}: move it into the folder (as its mod.ts or a file).`);
    }
  }
  return out.sort();
}

/** Node's network modules, named anywhere (a string can be imported later). */
const NETWORK_MODULES = /^node:(http|https|http2|tls|net|dgram)$/;
/** npm packages that are network clients, counted where they are imported. */
const NETWORK_PACKAGES = /^(@grpc\/grpc-js|ws)$/;

/** Whether a string literal is the module an import, an export or `import()` names. */
function isSpecifier(node: ts.StringLiteralLike): boolean {
  const parent = node.parent;
  return ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) ||
    (ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword);
}

/**
 * Where a source text names `Deno.*`, calls `fetch`, or names a Node network
 * module, as `kind at line`: comments and strings that only mention them do
 * not count.
 *
 * @example
 * ```ts
 * import { systemUses } from "./check_layers.ts";
 * const uses = systemUses("a.ts", '// Deno.exit\nconst t = "fetch(";\nawait fetch(u);\nDeno.exit(1);\n');
 * if (JSON.stringify(uses) !== '[{"kind":"network","line":3},{"kind":"deno","line":4}]') {
 *   throw new Error(JSON.stringify(uses));
 * }
 * ```
 */
export function systemUses(
  file: string,
  text: string,
): { kind: "deno" | "network"; line: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: { kind: "deno" | "network"; line: number }[] = [];
  const at = (node: ts.Node) =>
    source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node) => {
    if (
      ts.isIdentifier(node) && node.text === "Deno" && !ts.isPropertyAccessExpression(node.parent)
    ) {
      out.push({ kind: "deno", line: at(node) });
    } else if (
      ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) &&
      node.expression.text === "Deno"
    ) {
      out.push({ kind: "deno", line: at(node) });
      return;
    } else if (
      ts.isCallExpression(node) && ts.isIdentifier(node.expression) &&
      node.expression.text === "fetch"
    ) {
      out.push({ kind: "network", line: at(node) });
    } else if (
      ts.isNewExpression(node) && ts.isIdentifier(node.expression) &&
      /^(WebSocket|WebSocketStream|EventSource)$/.test(node.expression.text)
    ) {
      out.push({ kind: "network", line: at(node) });
    } else if (
      ts.isStringLiteralLike(node) &&
      (NETWORK_MODULES.test(node.text) || (NETWORK_PACKAGES.test(node.text) && isSpecifier(node)))
    ) {
      out.push({ kind: "network", line: at(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/**
 * The problems of the files of `lib/` (paths relative to the root, with their
 * text): `Deno.*` outside `lib/io/`, the network outside `lib/http/` and a
 * step kind's own folder (`lib/kinds/grpc/`: a kind is a protocol), files
 * beside a folder of the same stem, and files loose in `lib/`.
 *
 * @example
 * ```ts
 * import { fileViolations } from "./check_layers.ts";
 * const found = fileViolations(new Map([
 *   ["lib/io/read.ts", "await Deno.readFile(p);"],
 *   ["lib/run/step.ts", "Deno.exit(1);"],
 *   ["lib/http/send.ts", "await fetch(u);"],
 * ]));
 * if (found.length !== 1 || !found[0].startsWith("lib/run/step.ts:1 names Deno.*")) throw new Error();
 * ```
 */
export function fileViolations(files: Map<string, string>): string[] {
  const out: string[] = [...stemClashes([...files.keys()])];
  for (const [path, text] of files) {
    if (!path.endsWith(".ts")) continue;
    if (!stageOf(path) && /^lib\/[^/]+$/.test(path)) {
      out.push(`${path} is loose in lib/: move it into one of the stage folders.`);
    }
    for (const use of systemUses(path, text)) {
      if (use.kind === "deno" && !path.startsWith("lib/io/")) {
        out.push(`${path}:${use.line} names Deno.*: only lib/io/ may; add a function there.`);
      }
      if (use.kind === "network" && !/^lib\/(http|kinds\/[^/]+)\//.test(path)) {
        out.push(
          `${path}:${use.line} uses the network: only lib/http/ and a step kind's folder may; send through them.`,
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
      const deps = new Set<string>();
      for (const d of m.dependencies ?? []) {
        for (const s of [d.code?.specifier, d.type?.specifier]) {
          if (typeof s === "string" && s.startsWith(base)) deps.add(s.slice(base.length));
        }
      }
      graph.set(spec.slice(base.length), [...deps]);
    }
  }
  return graph;
}

/** The files under `lib/` with their text, paths relative to the root. */
export async function libFiles(): Promise<Map<string, string>> {
  const root = new URL("../", import.meta.url);
  const out = new Map<string, string>();
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, root))) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) await walk(`${path}/`);
      else out.set(path, await Deno.readTextFile(new URL(path, root)));
    }
  };
  await walk("lib/");
  return out;
}

/** Every problem of the project's shape, sorted; empty when it holds. */
export async function shapeProblems(): Promise<string[]> {
  const graph = await importGraph(["mod.ts", "cli.ts"]);
  const lib = new Map([...graph].filter(([k]) => k.startsWith("lib/")));
  const cycles = importCycles(lib).map((c) => `Import cycle: ${c.join(" → ")}.`);
  return [...layerViolations(graph), ...cycles, ...fileViolations(await libFiles())];
}

if (import.meta.main) {
  const problems = await shapeProblems();
  for (const p of problems) console.error(p);
  if (problems.length > 0) Deno.exit(1);
  console.log(
    "The imports follow the stages; no cycle; Deno.* only in io/, the network only in http/ and a kind's folder.",
  );
}
