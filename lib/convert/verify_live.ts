/**
 * `--verify`'s live session: the converted flow's steps sent one at a time
 * by the runner's own step level (`run/step.ts`), with one scope for the
 * whole session, so each step sees the captures of the steps before it. A
 * step whose URL is not on one of the API's hosts is never sent.
 *
 * @module
 */
import { Deadlines } from "../http/deadlines.ts";
import type { Scope } from "../expr/template.ts";
import type { Flow, Step as FlowStep } from "../model/flow.ts";
import type { Template } from "../model/template.ts";
import { resolveRequest } from "../http/request.ts";
import { Redactor } from "../secrets/mod.ts";
import type { StepResult } from "../model/result.ts";
import { newRunId } from "../run/options.ts";
import type { Context, WithJar } from "../run/context.ts";
import { CookieJar } from "../http/cookie_jar.ts";
import { runStep } from "../run/step.ts";
import { secretInputs } from "../secrets/discover.ts";
import { render } from "../expr/template.ts";

/**
 * The target of a step of another kind (`websocket:`, `sse:`): its `url`;
 * one that names none is no API host's, so it is never sent.
 */
function callUrl(call: NonNullable<FlowStep["call"]>, scope: Scope): string {
  const url = (call.spec as { url?: unknown } | null)?.url;
  const template = typeof url === "object" && url !== null && "parts" in url
    ? url as Template
    : undefined;
  return template ? String(render({ kind: "template", template }, scope)) : `${call.kind}:`;
}

/** One step sent live: its result and what it captured, or the host it was not sent to. */
export type LiveOutcome =
  | { sent: true; result: StepResult; captured: Map<string, unknown> }
  | { sent: false; host: string };

/**
 * A live session against the API's hosts.
 *
 * @example
 * ```ts
 * import { LiveSession } from "./verify_live.ts";
 * import { loadFlow } from "../load/load_flow.ts";
 * const { flow } = loadFlow(`name: f\nvars: {base_url: "\${ENV.BASE_URL}"}\nsteps:\n  - name: s\n    request: {url: "\${vars.base_url}/\${ENV.ID}"}\n  - name: t\n    request: {url: "http://127.0.0.2:9/y"}\n`, "f.yaml", { checkEnv: false });
 * const base = "http://127.0.0.1:9";
 * const live = new LiveSession(flow!, (n) => n === "BASE_URL" ? base : undefined, ["127.0.0.1:9"]);
 * // The first step lacks a value: the runner fails it without sending; the second is not the API's.
 * const first = await live.run(flow!.steps[0]);
 * const second = await live.run(flow!.steps[1]);
 * live.close();
 * if (!first.sent || first.result.status !== "error" || second.sent || live.requests !== 0) throw new Error();
 * ```
 */
export class LiveSession {
  /** Requests sent so far (each poll attempt and retry counts). */
  requests = 0;
  readonly #ctx: Context;
  readonly #scope: Scope & WithJar;
  readonly #steps = new Map<string, Map<string, unknown>>();
  readonly #flow: Flow;
  readonly #started = performance.now();
  readonly #hosts: ReadonlySet<string>;

  constructor(
    flow: Flow,
    env: (name: string) => string | undefined,
    hosts: readonly string[],
    timeoutMs = 30_000,
  ) {
    const redactor = new Redactor();
    const runId = newRunId();
    this.#flow = flow;
    this.#hosts = new Set(hosts.map((h) => h.toLowerCase()));
    this.#ctx = {
      env,
      params: new Map(),
      runId,
      timeoutMs,
      reporter: { onRequest: () => void this.requests++ },
      redactor,
      detailed: 0,
      secret: (value) => redactor.add(value),
      trace: false,
      deadlines: new Deadlines(),
    };
    const vars = new Map<string, unknown>();
    // The flow's own jar, as a run keeps it: a sanitized recording's session cookies live there.
    const jarOn = flow.options?.cookieJar;
    this.#scope = { env, vars, steps: this.#steps, runId, jar: new CookieJar(), jarOn };
    for (const v of flow.vars) vars.set(v.name, render(v.value, this.#scope));
  }

  /** Masks the session's secrets (what the live responses set, what the flow sent) in text. */
  mask(text: string): string {
    return this.#ctx.redactor.redact(text);
  }

  /** A value the session holds as a step's capture (a repair made after the step ran). */
  setCapture(step: string, name: string, value: unknown): void {
    const held = this.#steps.get(step) ?? new Map<string, unknown>();
    held.set(name, value);
    this.#steps.set(step, held);
  }

  /** Sends one step (again, when it is tried after a repair), unless its host is not the API's. */
  async run(step: FlowStep, flow: Flow = this.#flow): Promise<LiveOutcome> {
    try {
      const url = step.call
        ? callUrl(step.call, this.#scope)
        : resolveRequest(step.request, this.#scope).url;
      const host = new URL(url).host.toLowerCase();
      if (!this.#hosts.has(host)) return { sent: false, host };
    } catch {
      // A value it needs is missing: the runner fails the step without sending anything.
    }
    const captured = new Map<string, unknown>();
    const before = this.#steps.get(step.name);
    this.#steps.set(step.name, captured);
    const result = await runStep({
      ref: { file: flow.file, name: flow.name },
      step,
      scope: this.#scope,
      captured,
      flowStarted: this.#started,
      inputs: secretInputs(flow),
    }, this.#ctx);
    // Captures a repair set on this step before are kept unless the live run took them anew.
    for (const [k, v] of before ?? []) if (!captured.has(k)) captured.set(k, v);
    return { sent: true, result, captured };
  }

  /** Ends the session's request deadlines. */
  close(): void {
    this.#ctx.deadlines?.close();
  }
}
