/**
 * What an export gathers while it walks the flows: the things Artillery
 * cannot express (named in the summary and as comments, never dropped
 * silently), the environment variables the script reads, and the values
 * the processor file computes for each virtual user (flow vars, env
 * fallbacks) or before each request (fresh random values).
 *
 * @module
 */

/** One thing of a flow the exported script does not do as `flowrun run` would. */
export interface Note {
  /** The flow's name. */
  flow: string;
  /** The step's name, when the note is about one step. */
  step?: string;
  /** What is not expressed, in a sentence. */
  what: string;
}

import type { ValueTemplate } from "../model/template.ts";

/** How a fresh value is made: a UUID, so many hex digits, or the time (`${NOW.…}`). */
export type Fresh =
  | { kind: "uuid" }
  | { kind: "hex"; length: number }
  | { kind: "alpha"; length: number }
  | { kind: "upper"; length: number }
  | { kind: "digits"; length: number }
  | { kind: "password" }
  | { kind: "bool" }
  | { kind: "now"; format: string; offsetMs: number };

/** The state of one export, shared by the flows it writes. */
export interface ExportScope {
  /** Everything not expressed, in the order met. */
  notes: Note[];
  /** Environment variables the script reads (`{{ $env.X }}` or the processor). */
  env: Set<string>;
  /** Per-request fresh values: Artillery variable → how it is made. */
  fresh: Map<string, Fresh>;
  /** Per-virtual-user values: Artillery variable → JavaScript expression over `v` (the VU's vars). */
  perUser: Map<string, string>;
  /** Values encoded for a URL before the request: Artillery variable → JavaScript expression. */
  encoded: Map<string, string>;
  /** Files the script sends, by their path in the export folder. */
  files: Map<string, Uint8Array>;
  /** Steps' conditions: processor function name → JavaScript list of conditions over `v`. */
  conditions: Map<string, string>;
  /** OAuth2 blocks met, and the processor function that gets each one's token. */
  tokens: Map<object, { fn: string; variable: string } | undefined>;
  /** Each token function: the variable it fills and its request, as JavaScript. */
  tokenCode: Map<string, { variable: string; spec: string }>;
  /** Setup flows' outputs: Artillery variable (`setup_NAME`) → JavaScript over `v`. */
  outputs: Map<string, string>;
  /** Captures made only for a check, counted to keep their names apart. */
  checkCaptures: number;
  /** Name spaces handed out: one per scenario and per included flow. */
  namespaces: number;
  /** WebSocket and SSE steps: processor function name → what it reads (kind_step.ts). */
  kindSteps: Map<string, object>;
  /**
   * The TLS settings given when exporting (`--cacert`, `--cert`/`--key`,
   * `--insecure`), which the steps the processor connects take as `flowrun run` does.
   */
  network?: ExportNetwork;
  /** `--max-body` in bytes, when given: the processor's exchanges hold at most this much. */
  maxBodyBytes?: number;
}

/** TLS settings for the processor's connections, as the run's are given (PEM text). */
export interface ExportNetwork {
  /** CAs trusted besides the system's. */
  caCerts?: string[];
  /** A client certificate and its key. */
  clientCert?: { cert: string; key: string };
  /** Do not check servers' certificates. */
  insecure?: boolean;
}

/**
 * A new, empty export scope.
 *
 * @example
 * ```ts
 * import { newScope } from "./scope.ts";
 * const scope = newScope();
 * if (scope.notes.length !== 0 || scope.env.size !== 0) throw new Error();
 * ```
 */
export function newScope(): ExportScope {
  return {
    notes: [],
    env: new Set(),
    fresh: new Map(),
    perUser: new Map(),
    encoded: new Map(),
    files: new Map(),
    conditions: new Map(),
    tokens: new Map(),
    tokenCode: new Map(),
    outputs: new Map(),
    checkCaptures: 0,
    namespaces: 0,
    kindSteps: new Map(),
  };
}

/** Where templates are being translated: the flow, its step, the flow's vars. */
export interface Place {
  readonly scope: ExportScope;
  readonly flow: string;
  /** The flow's index among the exported flows: keeps Artillery variable names apart. */
  readonly flowIndex: number;
  step?: string;
  /** The flow's vars by name (their Artillery variable is {@linkcode varName}). */
  readonly vars: ReadonlySet<string>;
  /** Environment variables whose values the flow sends as credentials (`secret_env.ts`). */
  readonly secretEnv?: ReadonlySet<string>;
  /** In an included flow: what comes before its step names (`login › `). */
  readonly prefix?: string;
  /** In an included flow: its vars the include's `with` gives, and where those values are read. */
  readonly bound?: ReadonlyMap<string, Bound>;
  /** The include steps met so far: their outputs, read as `${steps.NAME.KEY}`. */
  readonly included?: Map<string, { place: Place; outputs: ReadonlyMap<string, ValueTemplate> }>;
}

/** A value written in one place and read in another (a `with` value, an output). */
export interface Bound {
  value: ValueTemplate;
  place: Place;
}

/**
 * Records that something of the flow at `place` is not expressed.
 *
 * @example
 * ```ts
 * import { newScope, note } from "./scope.ts";
 * const scope = newScope();
 * note({ scope, flow: "f", flowIndex: 0, vars: new Set(), step: "s" }, "a loop is sent once");
 * if (scope.notes[0].step !== "s") throw new Error();
 * ```
 */
export function note(place: Place, what: string): void {
  const step = place.step === undefined ? undefined : `${place.prefix ?? ""}${place.step}`;
  place.scope.notes.push({ flow: place.flow, step, what });
}

/** Letters, digits and `_` only: what an Artillery `{{ name }}` may hold. */
function word(text: string): string {
  return text.replace(/[^A-Za-z0-9_]/g, "_");
}

/**
 * The Artillery variable of a flow var (per flow, as vars are).
 *
 * @example
 * ```ts
 * import { varName } from "./scope.ts";
 * if (varName(0, "base-url") !== "f0_var_base_url") throw new Error();
 * ```
 */
export function varName(flowIndex: number, name: string): string {
  return `f${flowIndex}_var_${word(name)}`;
}

/**
 * The Artillery variable a step's capture is kept in.
 *
 * @example
 * ```ts
 * import { captureName } from "./scope.ts";
 * if (captureName(1, "log in", "token") !== "f1_log_in__token") throw new Error();
 * ```
 */
export function captureName(flowIndex: number, step: string, key: string): string {
  return `f${flowIndex}_${word(step)}__${word(key)}`;
}

/**
 * The Artillery variable behind `${RUN_ID}`: the id Artillery gives each
 * virtual user, so that the names a flow makes unique by the run id stay
 * unique across parallel users.
 */
export const RUN_ID_VAR = "$uuid";
