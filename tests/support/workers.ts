/**
 * Shared by the `--workers` tests (tests/run/workers/): a suite written to a
 * temporary folder, a server that notes every request, and reports with
 * what differs between two runs of the same suite (times, durations)
 * replaced by fixed markers.
 */

import { type CliRun, runCli } from "./cli.ts";

/**
 * Runs the suite's `flows` folder from `dir` with `--workers WORKERS --jobs
 * JOBS`, then `more` options, the environment `env` added.
 *
 * @example
 * ```ts ignore
 * import { runWorkers } from "./workers.ts";
 * const run = await runWorkers(dir, "3", "4", ["--run-id", "same", "--report-json", "r3.json"]);
 * ```
 */
export function runWorkers(
  dir: string,
  workers: string,
  jobs: string,
  more: string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  return runCli(["run", "flows", "--workers", workers, "--jobs", jobs, ...more], { cwd: dir, env });
}

/** Writes `files` (path → text) into a new temporary folder and returns it. */
export async function suite(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-workers-" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  return dir;
}

/** A request as the server saw it: its path and query, when it came and when it was answered. */
export interface Seen {
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: string;
  start: number;
  end: number;
}

/**
 * A server on 127.0.0.1 that notes every request and answers with
 * `handle` (default: the query as JSON, status from `?status=`).
 */
export function notingServer(
  handle?: (seen: Seen) => Response | Promise<Response>,
): { base: string; seen: Seen[]; stop(): Promise<void> } {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const entry: Seen = {
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: await req.text(),
      start: performance.now(),
      end: 0,
    };
    seen.push(entry);
    try {
      return handle ? await handle(entry) : Response.json(Object.fromEntries(url.searchParams), {
        status: Number(url.searchParams.get("status") ?? 200),
      });
    } finally {
      entry.end = performance.now();
    }
  });
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    seen,
    stop: () => server.shutdown(),
  };
}

/** Milliseconds, as a promise. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * The JSON report with its times and durations replaced by markers, and the
 * run's thread count (`workers`, which says how it ran, not what it found).
 */
export function stableJson(text: string): unknown {
  return JSON.parse(text, (key, value) => {
    if (["duration_ms", "start_ms", "started_at", "finished_at", "date"].includes(key)) return "T";
    if (key === "timings") return "T";
    if (key === "workers" && typeof value === "number") return "N";
    return value;
  });
}

/** The JUnit report with its times replaced by markers. */
export function stableJunit(text: string): string {
  return text.replace(/\b(time|timestamp)="[^"]*"/g, '$1="T"')
    .replace(/\d+(\.\d+)? ?ms\b/g, "N ms");
}
