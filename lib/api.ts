/**
 * The library's front door: the same choices as the CLI in one call. Given
 * paths, {@linkcode runFlows} loads and checks them first (every problem is
 * thrown together as a `FlowLoadError`, nothing is sent); given loaded flows,
 * it runs them. Test failures never throw: they are in the result.
 *
 * @module
 */
import { FlowLoadError } from "./model/errors.ts";
import type { Flow } from "./model/flow.ts";
import { PARSED_FLOW_WINDOW } from "./model/limits.ts";
import { byteSpill } from "./io/byte_spill.ts";
import { readEnv } from "./io/env.ts";
import { runFlows as runLoaded } from "./run/flows.ts";
import type { RunOptions } from "./run/options.ts";
import type { RunResult } from "./model/result.ts";
import type { Shard } from "./select/shard.ts";
import {
  loadFlows as loadSet,
  loadFlowsDeferred,
  type LoadFlowsOptions,
  type LoadFlowsResult,
} from "./load/suite.ts";

/** Options of {@linkcode runFlows} and {@linkcode loadFlows}: the CLI's, by the same names. */
export interface FlowrunOptions extends Omit<RunOptions, "params"> {
  /** Run parameters, as `--var NAME=VALUE`: override flow vars of the same name and add new ones. */
  vars?: Record<string, string> | ReadonlyMap<string, string>;
  /** Run only this shard's part of the files, as `--shard I/N`. */
  shard?: Shard;
  /** Run only flows whose name or path matches, as `--filter`. */
  filter?: readonly string[];
  /** Report references to unset environment variables (default true; `validate --no-env` turns it off). */
  checkEnv?: boolean;
  /** Flow files may run programs for a bearer token (`bearer: {command: […]}`): `--allow-commands`. */
  allowCommands?: boolean;
}

function params(vars: FlowrunOptions["vars"]): ReadonlyMap<string, string> {
  if (vars === undefined) return new Map();
  return vars instanceof Map ? vars : new Map(Object.entries(vars));
}

/**
 * Finds, reads and checks flow files: the flows that loaded and every
 * problem, with position and hint. Environment variables are read from the
 * process unless `env` is given.
 *
 * @example
 * ```ts
 * import { loadFlows } from "./api.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.yaml`, "name: a\nsteps:\n  - name: s\n    request: {url: \"${base}/x\"}\n");
 * const { flows, problems } = await loadFlows([dir], { vars: { base: "http://api.test" } });
 * await Deno.remove(dir, { recursive: true });
 * if (flows.length !== 1 || problems.length !== 0) throw new Error();
 * ```
 */
export async function loadFlows(
  paths: readonly string[],
  options: FlowrunOptions = {},
): Promise<LoadFlowsResult> {
  return await loadSet(paths, loadOptions(options));
}

function loadOptions(options: FlowrunOptions): LoadFlowsOptions {
  return {
    env: options.env ?? readEnv,
    params: params(options.vars),
    shard: options.shard,
    filter: options.filter,
    checkEnv: options.checkEnv,
    allowCommands: options.allowCommands,
  };
}

/**
 * Runs flow files (paths are loaded and checked first) or loaded flows, and
 * resolves to the run result that the JSON report serialises. Throws
 * `FlowLoadError` with every problem when a file does not load; never throws
 * for test failures.
 *
 * @example
 * ```ts
 * import { runFlows } from "./api.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => Response.json({ ok: true }));
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/ping.yaml`, "name: ping\nsteps:\n  - name: get\n    request: {url: \"${base}/\"}\n    assert: {status: 200}\n");
 * const result = await runFlows([dir], { vars: { base: `http://127.0.0.1:${server.addr.port}` }, jobs: 1 });
 * await server.shutdown();
 * await Deno.remove(dir, { recursive: true });
 * if (result.status !== "passed" || result.totals.steps.passed !== 1) throw new Error();
 * ```
 */
export async function runFlows(
  input: readonly string[] | readonly Flow[],
  options: FlowrunOptions = {},
): Promise<RunResult> {
  const env = options.env ?? readEnv;
  if (!input.every((item): item is string => typeof item === "string")) {
    return await runLoaded(input as readonly Flow[], {
      ...options,
      env,
      params: params(options.vars),
    });
  }
  // Past the window, flows wait for their turn as bytes, on disk: flat memory at any suite size.
  const spill = byteSpill();
  try {
    const loaded = await loadFlowsDeferred(
      input as readonly string[],
      { ...loadOptions({ ...options, env }), spill },
      PARSED_FLOW_WINDOW,
    );
    if (loaded.problems.length > 0) throw new FlowLoadError(loaded.problems);
    return await runLoaded(loaded.flows, { ...options, env, params: params(options.vars) });
  } finally {
    spill.close();
  }
}
