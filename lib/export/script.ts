/**
 * The exported Artillery test: the script (YAML) and its processor file,
 * both relative to one folder, so the folder runs as it is with
 * `artillery run` and on Artillery's distributed runners. The script's
 * head comment names the environment variables it reads and everything
 * not expressed; each step's notes are also the comment above it.
 *
 * @module
 */
import { commented, toYaml, ymap, type YNode } from "../convert/yaml_out.ts";
import type { Flow } from "../model/flow.ts";
import type { Phase } from "./phases.ts";
import { PROCESSOR_FILE, processorSource } from "./processor.ts";
import type { FlowItem } from "./flow_item.ts";
import { afterItems, beforeItems } from "./hooks.ts";
import { type Scenario, scenariosOf } from "./scenario.ts";
import { runCaFile } from "./kind_tls.ts";
import { type ExportNetwork, newScope, type Note } from "./scope.ts";

/** The script's file name in the export folder. */
export const SCRIPT_FILE = "artillery.yml";

/** How to export: the load phase, what is exported, and the run's settings the processor takes. */
export interface ExportOptions {
  phase: Phase;
  /** What was exported, for the head comment. */
  from: string;
  setup?: readonly Flow[];
  teardown?: readonly Flow[];
  /** `--cacert`, `--cert`/`--key`, `--insecure`: for the steps the processor connects. */
  network?: ExportNetwork;
  /** `--max-body` in bytes: the most the processor's exchanges hold. */
  maxBodyBytes?: number;
}

/** What an export gives: its files (paths relative to the folder) and what to tell the user. */
export interface ArtilleryExport {
  files: { path: string; text: string }[];
  /** Files the script sends (uploads), by their path in the folder. */
  data: { path: string; bytes: Uint8Array }[];
  /** Scenarios and requests written. */
  scenarios: number;
  requests: number;
  /** Environment variables the script reads, sorted. */
  env: string[];
  /** What is not expressed. */
  notes: Note[];
  /**
   * The `--cacert` files together, in the folder: what `NODE_EXTRA_CA_CERTS`
   * names for Artillery's own HTTP requests, which take no CA of the script.
   */
  caFile?: string;
}

/** A plain value as a YAML node: objects become ordered maps. */
function toNode(value: unknown): YNode {
  if (Array.isArray(value)) return value.map(toNode);
  if (value !== null && typeof value === "object") {
    return ymap(
      Object.entries(value).map(([k, v]) => [k, v === undefined ? undefined : toNode(v)]),
    );
  }
  if (value === undefined) return null;
  return value as string | number | boolean | null;
}

/**
 * Artillery's `target`, which it requires though every exported URL is
 * absolute: the environment variable or origin the first request starts
 * with, so reports and dashboards name the system under load.
 */
export function targetOf(scenarios: readonly Scenario[]): string {
  for (const { items } of scenarios) {
    for (const { item } of items) {
      const request = Object.values(item)[0] as { url?: unknown };
      if (typeof request?.url !== "string") continue;
      const start = /^(\{\{ \$env\.\w+ \}\}|https?:\/\/[^/{}?#]+)/.exec(request.url);
      if (start) return start[1];
    }
  }
  return "http://localhost";
}

/** The script's config section. */
function config(phase: Phase, target: string): YNode {
  return toNode({
    target,
    phases: [phase],
    processor: `./${PROCESSOR_FILE}`,
    plugins: {
      // A failed check ends the virtual user as a failed one, as it ends a flow run.
      expect: {
        reportFailuresAsErrors: true,
        useOnlyRequestNames: true,
        outputFormat: "prettyError",
      },
    },
  });
}

/**
 * Exports `flows` as an Artillery test with one load phase; `from` names
 * what was exported, for the head comment.
 *
 * @example
 * ```ts
 * import { exportArtillery } from "./script.ts";
 * const step = { name: "s", line: 1, column: 1, captures: [], dependsOn: [], assert: { paths: [] },
 *   request: { method: "GET", url: { source: "http://x.test/", parts: ["http://x.test/"] }, headers: [] } };
 * const flow = { file: "f.yaml", name: "f", vars: [], steps: [step] };
 * const out = exportArtillery([flow], { phase: { name: "p", duration: 1, arrivalCount: 3 }, from: "f.yaml" });
 * if (out.files.length !== 2 || out.requests !== 1 || !out.files[0].text.includes("arrivalCount: 3")) {
 *   throw new Error(out.files[0].text);
 * }
 * ```
 */
export function exportArtillery(
  flows: readonly Flow[],
  options: ExportOptions,
): ArtilleryExport {
  const scope = newScope();
  scope.network = options.network;
  scope.maxBodyBytes = options.maxBodyBytes;
  // The setup flows first: the others read their outputs.
  const before = beforeItems(options.setup ?? [], scope);
  const scenarios = scenariosOf(flows, scope);
  const caFile = runCaFile(scope);
  const after = afterItems(options.teardown ?? [], scope);
  // Processor calls (a WebSocket or SSE step's among them), pauses and notes are no requests.
  const requests = scenarios.flatMap((s) => s.items)
    .filter((i) => !("function" in i.item) && !("think" in i.item) && !("log" in i.item)).length;
  const env = [...scope.env].sort();
  const head = [
    `Written by flowrun export artillery from ${options.from}.`,
    `Run: artillery run ${SCRIPT_FILE} (see docs/load-testing.md for distributed runs).`,
    env.length
      ? `Environment variables it reads: ${env.join(", ")}.`
      : "It reads no environment variables.",
    ...scope.notes.map((n) => `Not expressed: ${n.flow}${n.step ? ` › ${n.step}` : ""}: ${n.what}`),
  ];
  const flowOf = (items: FlowItem[]) =>
    items.map((i) => i.comments.length ? commented(i.comments, toNode(i.item)) : toNode(i.item));
  const root = ymap([
    ["config", config(options.phase, targetOf(scenarios))],
    ["before", before && ymap([["flow", flowOf(before)]])],
    ["after", after && ymap([["flow", flowOf(after)]])],
    [
      "scenarios",
      scenarios.map((s) =>
        ymap([
          ["name", s.name],
          ["flow", flowOf(s.items)],
        ])
      ),
    ],
  ]);
  return {
    files: [
      { path: SCRIPT_FILE, text: toYaml(head, root) },
      { path: PROCESSOR_FILE, text: processorSource(scope) },
    ],
    data: [...scope.files].map(([path, bytes]) => ({ path, bytes })),
    scenarios: scenarios.length,
    requests,
    env,
    notes: scope.notes,
    ...(caFile && { caFile }),
  };
}
