/**
 * The last stage of `convert har`: the flow as YAML text. A header comment
 * lists the variables to set and the limits met; each step has a comment with
 * the recorded request and outcome. Every recorded secret is checked for
 * once more in the literal text of values (`write_scrub.ts`: never a key, a
 * name, a capture or an expression): one still in request data becomes
 * `${ENV.RECORDED_SECRET}`, one left in an encoded form is masked, and both
 * are noted. The API's own words and the flow's names are never secrets.
 *
 * @module
 */
import { originAbout } from "./correlate/origin_about.ts";
import { Redactor, TailedTexts } from "../secrets/mod.ts";
import { isSecretName } from "../secrets/mod.ts";
import { isKeyData } from "../secrets/mod.ts";
import { type Correlator, secretEnv, stablePath } from "./correlate/mod.ts";
import type { HarRecord } from "./har_model.ts";
import type { Step } from "./model.ts";
import { readableTitle } from "./names.ts";
import { plural } from "../_util/plural.ts";
import { commented, toYaml, yflow, type YMap, ymap, ymapOf, type YNode } from "./yaml_out.ts";
import { braceForeignIn, LBRACE_VAR } from "./foreign_text.ts";
import { apiWords } from "./correlate/api_words.ts";
import { literalTexts, scrubValues } from "./write_scrub.ts";
import { jwtsIn } from "./jwt_literal.ts";
import { kindStepNode } from "./correlate/websocket_step.ts";
import { awaitedCaptures } from "./correlate/websocket_await.ts";
import { grpcStatusOf } from "./har_grpc.ts";
import { escapeRegExp } from "../_util/regex_escape.ts";

/** What the writer needs besides the steps. */
export interface WriteInput {
  /** The flow's name, if the user chose one. */
  name?: string;
  /** The page title the producer recorded. */
  title?: string;
  /** Entries in the HAR. */
  total: number;
  ordered: HarRecord[];
  /** Limits met so far; the writer adds its own. */
  notes: string[];
  /**
   * Another converter's words (`convert curl`): the header's first line, and
   * each step's comment instead of the recorded request and outcome.
   */
  source?: { header: string; describe: (step: Step) => string };
  /** Keep the cookies the server sets (`options: {cookie_jar: true}`): the recording lost them. */
  cookieJar?: boolean;
}

/**
 * Writes the flow. Returns its text, the notes (the writer's included) and
 * the masking that keeps recorded secrets out of anything else shown.
 *
 * @example
 * ```ts
 * import { writeFlow } from "./write.ts";
 * import { correlate } from "./correlate/mod.ts";
 * import { loadBodies } from "./har_bodies.ts";
 * import { parseHar } from "./har_model.ts";
 * const { records } = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "GET", url: "https://a.test/me" }, response: { status: 200, content: { mimeType: "application/json", text: "{}" } } },
 * ] } }), []);
 * loadBodies(records, []);
 * const c = correlate(records, [{ records }], "a");
 * const { yaml } = writeFlow(c, { total: 1, ordered: records, notes: [] });
 * if (!yaml.includes("name: Recorded session on a.test") || !yaml.includes("- name: get_me")) throw new Error(yaml);
 * ```
 */
export function writeFlow(
  c: Correlator,
  input: WriteInput,
): { yaml: string; notes: string[]; mask: (text: string) => string } {
  const { ordered, notes, total } = input;
  const redactor = secretRedactor(c, namesOf(c, ordered));
  const mask = (text: string) => redactor.redact(text);
  const header = () => headerLines(c, total, notes, input.source?.header).map(mask);
  const steps: YNode = c.steps.map((s) => stepNode(c, s, mask, input.source?.describe ?? describe));
  // Another tool's placeholder in the sent text ({{x}}) is sent as written, its "{" from a var.
  const vars = ymap(c.vars.map(([name, value]): [string, YNode] => [name, value]));
  if (braceForeignIn([steps, vars])) vars.entries.unshift([LBRACE_VAR, "{"]);
  let root: YNode = ymap([
    ["name", flowName(input, ordered)],
    ["options", input.cookieJar ? ymap([["cookie_jar", true]]) : undefined],
    ["vars", vars.entries.length > 0 ? vars : undefined],
    ["steps", steps],
  ]);
  // A typed password inside another value (a name that holds the word) is the user's data there:
  // sent as recorded, masked only in what is printed (comments, notes).
  const inData = secretRedactor(c, namesOf(c, ordered), c.typed);
  const refs = straySecrets(c, inData, literalTexts(root));
  if (refs.length > 0) {
    notes.push(
      `${
        plural(refs.length, "recorded secret value was", "recorded secret values were")
      } found inside request data and replaced by ${
        refs.map(([, ref]) => ref).join(", ")
      }; review the flow.`,
    );
    root = scrubValues(root, replaceEach(refs));
  }
  // Still there in an encoded form: masked, and said so. Only the literal text of values is
  // searched, so no key, name, capture or expression is ever masked.
  let masked = false;
  root = scrubValues(root, (text) => {
    const out = inData.redact(text);
    if (out !== text) masked = true;
    return out;
  });
  if (masked) {
    notes.push(
      "A recorded secret value was found in an encoded form and masked as ***; review the flow.",
    );
  }
  return { yaml: toYaml(header(), root as YMap), notes, mask };
}

/** Replaces each recorded value by its reference in one pass, longest first. */
function replaceEach(refs: (readonly [string, string])[]): (text: string) => string {
  const byValue = new Map(refs);
  const pattern = new RegExp(refs.map(([value]) => escapeRegExp(value)).join("|"), "g");
  return (text) => text.replace(pattern, (value) => byValue.get(value) ?? value);
}

/**
 * The names a flow holds, which are never secrets whatever a recording held
 * under a secret-looking key: the API's own words (JSON keys, query and
 * cookie names), the steps' names and the captures' names.
 */
function namesOf(c: Correlator, ordered: HarRecord[]): Set<string> {
  const names = new Set([...apiWords(ordered), ...c.apiWords]);
  for (const step of c.steps) {
    names.add(step.name);
    for (const [name] of step.captures) names.add(name);
  }
  return names;
}

/** Every secret the recording holds, for masking comments and a last check of the output. */
function secretRedactor(
  c: Correlator,
  names: Set<string>,
  left: ReadonlySet<string> = new Set(),
): Redactor {
  const redactor = new Redactor();
  // A secret made with a name (`sid=…; csrf=…`, the SESSION_COOKIE text) is masked whole,
  // never by the name in it: the header names the cookies a variable stands for.
  for (const name of names) redactor.addPublic(name);
  // Whole "Basic …"/"Bearer …" values are left out: the redactor would also register the
  // decoded user name and short passwords, masking ordinary words; their parts are listed.
  for (const s of c.secrets) {
    if (names.has(s) || left.has(s)) continue;
    if (s.trim().length >= 6 && !/^(Basic|Bearer|Token|ApiKey|DPoP|Negotiate|NTLM)\s/i.test(s)) {
      redactor.add(s);
    }
  }
  return redactor;
}

/**
 * Which of `values` stand in any of `texts`: each text read once against an
 * index of the values, not every text searched for each of thousands of
 * secrets (a long token chain's).
 */
function foundIn(values: readonly string[], texts: readonly string[]): Set<string> {
  const index = new TailedTexts();
  for (const v of values) index.add(v);
  const found = new Set<string>();
  for (const text of texts) for (const [, v] of index.places(text)) found.add(v);
  return found;
}

/** The flow's name: given, else the recording's page title, else the first host's. */
function flowName(input: WriteInput, ordered: HarRecord[]): string {
  const hosts = [...new Set(ordered.map((r) => r.url.host))];
  const title = input.title && !/^[a-z]+:\/\//i.test(input.title)
    ? readableTitle(input.title)
    : undefined;
  return input.name ?? (title || `Recorded session on ${hosts[0]}`);
}

/** The comment over the flow: what it came from, the variables it reads, the limits met. */
function headerLines(c: Correlator, total: number, notes: string[], first?: string): string[] {
  const required = [...c.env].filter(([, v]) => v.fallback === undefined);
  const optional = [...c.env].filter(([, v]) => v.fallback !== undefined);
  const width = Math.max(...[...c.env.keys()].map((n) => n.length));
  return [
    first ??
      `Converted by flowrun convert har from a HAR recording of ${total} entries: ${
        plural(c.steps.length, "step")
      }.`,
    ...(required.length > 0
      ? [
        "Set these environment variables before running (recorded values are not kept):",
        ...required.map(([n, v]) => `  ${n.padEnd(width)}  ${originAbout(c, n, v)}`),
      ]
      : ["It needs no secret environment variables."]),
    ...(optional.length > 0
      ? [
        "Optional, defaulting to the recorded value:",
        ...optional.map(([n, v]) =>
          `  ${n.padEnd(width)}  ${originAbout(c, n, v)} (${v.fallback})`
        ),
      ]
      : []),
    ...(notes.length > 0 ? ["Limits met while converting:", ...notes.map((n) => `  - ${n}`)] : []),
  ];
}

/**
 * A recorded secret the rules did not anticipate (a token inside a longer
 * value, say) becomes a variable the flow reads: a masked *** in request
 * data would be sent as it is. Returns each value and its reference,
 * longest first.
 */
function straySecrets(
  c: Correlator,
  redactor: Redactor,
  literals: string[],
): (readonly [string, string])[] {
  const inLiterals = foundIn([...c.secrets].filter((v) => v.trim().length >= 6), literals);
  // A JSON Web Token no response produced is a credential by what it is, under any key: kept, the
  // redactor masked it below and the flow sent `***` (jwt_literal.ts).
  const jwts = jwtsIn(literals).filter((t) => !c.generated.has(t));
  const stray = [...c.secrets].filter((v) =>
    v.trim().length >= 6 && redactor.has(v) && inLiterals.has(v) && !jwts.includes(v)
  );
  const env = (value: string) =>
    jwts.includes(value)
      ? secretEnv(c, "JWT", value, "a JSON Web Token sent as recorded, which no response produced")
      : secretEnv(c, "RECORDED_SECRET", value, "a recorded secret value found inside request data");
  // A value the run makes up (a chosen password a page echoed back) is the run's own there too.
  return [...stray, ...jwts].sort((a, b) => b.length - a.length).map((value) =>
    [value, c.generated.get(value) ?? c.sp.envRef(env(value))] as const
  );
}

/** The step's `status:`: its own (curl's below 400), gRPC's, or the recorded one (a 304 as 200). */
function statusOf(step: Step): YNode | undefined {
  if (step.ownStatus !== undefined) return step.ownStatus;
  if (step.grpc) return grpcStatusOf(step.last);
  return step.last.status === 304 ? 200 : step.last.status;
}

function stepNode(
  c: Correlator,
  step: Step,
  mask: (text: string) => string,
  about: (step: Step) => string,
): YNode {
  const request = ymap([
    ["method", step.method],
    ["url", step.url],
    ["headers", ymapOf(step.headers)],
    ["body", step.body],
    ["form", step.form],
    ["multipart", step.multipart],
    ["body_file", step.bodyFile],
    ["body_base64", step.bodyBase64],
  ]);
  const { captures, websocket } = capturesOf(step, c);
  const jsonKey = c.sp.name === "a" ? "json" : "jsonpath";
  const checks = step.checks.map((k): YNode =>
    yflow([k.xpath ? ["xpath", k.xpath] : ["path", c.sp.jsonPath(k.path)], [k.op, k.value]])
  ).concat(step.ownChecks ?? []);
  const status = statusOf(step);
  const assert = status !== undefined || checks.length > 0
    ? ymap([["status", status], [jsonKey, checks.length > 0 ? checks : undefined]])
    : undefined;
  const loop = step.loop
    ? ymap([
      ["max_attempts", step.loop.maxAttempts],
      ["sleep_ms", step.loop.sleepMs],
      [
        "until",
        ymap([[jsonKey, untilChecks(c, step)]]),
      ],
    ])
    : undefined;
  const depends = c.sp.name === "b" && step.uses.size > 0
    ? c.steps.filter((s) => step.uses.has(s.name)).map((s) => s.name)
    : undefined;
  const node = ymap([
    ["name", step.name],
    ["depends_on", depends],
    ["always", step.always ? true : undefined],
    ["auth", step.auth],
    sentAs(step, request, websocket),
    ["options", step.options],
    ["loop", loop],
    [c.sp.name === "a" ? "capture" : "extract", captures],
    ["assert", assert],
  ]);
  return commented([about(step), ...step.remarks ?? []].map(mask), node);
}

/** A loop's conditions: the polled field's last value, the counts it waited for, or the text a write sent. */
function untilChecks(c: Correlator, step: Step): YNode[] {
  const loop = step.loop!;
  if (loop.shows !== undefined) return [yflow([["path", "$.body"], ["contains", loop.shows]])];
  if (loop.bounds) {
    return loop.bounds.map((b) => {
      // Another instance may list the items in another order: the count is read from the item a
      // field of it names, as a capture is (captures.ts), and a filter selects a list.
      const path = stablePath(c, step, b.path);
      const each: [string, true][] = path.some((p) => typeof p === "object")
        ? [["each", true]]
        : [];
      return yflow([["path", c.sp.jsonPath(path)], [b.op, b.value], ...each]);
    });
  }
  return [yflow([["path", c.sp.jsonPath(loop.path)], ["equals", loop.value]])];
}

/** A recorded WebSocket or event stream is a step of its own kind, sent instead of a request. */
function sentAs(step: Step, request: YMap, websocket: YMap | undefined): [string, YMap] {
  if (step.websocket) {
    return ["websocket", kindStepNode(step.url, step.headers, websocket ?? step.websocket)];
  }
  if (step.sse) return ["sse", kindStepNode(step.url, step.headers, step.sse)];
  if (step.grpc) return ["grpc", step.grpc];
  return ["request", request];
}

/**
 * A step's captures; a websocket step whose captures read received messages
 * waits for them, its map changed to say so (websocket_await.ts).
 */
function capturesOf(step: Step, c: Correlator): { captures?: YMap; websocket?: YMap } {
  const awaited = step.websocket && awaitedCaptures(step.websocket, step.captures, c.sp);
  if (step.captures.length === 0) return {};
  const nodes = awaited
    ? awaited.captures
    : step.captures.map(([n, s]) => [n, c.sp.captureNode(s)]);
  return { captures: ymap(nodes as [string, YNode][]), websocket: awaited?.websocket };
}

function describe(step: Step): string {
  const r = step.first;
  // A key sent with no value (`?sessionOnly`) is a flag, shown as sent: `***` would say a
  // secret was there.
  const query = [...r.url.searchParams].map(([k, v]) =>
    v === ""
      ? encodeURIComponent(k)
      : `${encodeURIComponent(k)}=${
        isSecretName(k) && !isKeyData(k, v) ? "***" : encodeURIComponent(v)
      }`
  );
  const url = `${r.url.origin}${r.url.pathname}${query.length > 0 ? `?${query.join("&")}` : ""}`;
  const status = step.last.status;
  let outcome = status === undefined
    ? "no response recorded"
    : status === 304
    ? "304 (expected as 200: conditional headers are not sent)"
    : String(status);
  if (step.loop?.answered) outcome += ", read until it lists what the write answered";
  else if (step.loop?.shows !== undefined) outcome += ", read until it shows what the write sent";
  else if (step.loop) {
    outcome += `, polled ${step.records.length} times (${step.loop.values.join(" → ")})`;
  }
  return `${r.method} ${url} → ${outcome}`;
}
