/**
 * One step built from a group of records (a request and the polls that
 * repeat it): named for what it does, its URL, headers and body rewritten
 * (`rewrite_*.ts`), its response asserted on, then what that response
 * hands out recorded for the steps after it.
 *
 * @module
 */
import { retryLaterMade } from "./later_made.ts";
import { retryAfterRestart } from "./server_restart.ts";
import { awaitShown } from "./shown_later.ts";
import { awaitListed } from "./listed_later.ts";
import { retryRateLimited } from "./rate_limited.ts";
import { addAssertions } from "../assertions.ts";
import { AnswerKeys } from "../answer_keys.ts";
import type { HarRecord } from "../har_model.ts";
import { parseBody, safeDecode, valueKey, walk } from "../json.ts";
import type { Step } from "../model.ts";
import {
  authStepName,
  isAuthPath,
  operationName,
  resourceNoun,
  shortName,
  snake,
  stepName,
} from "../names.ts";
import { isIdSegment } from "./ids.ts";
import { rememberFields } from "./client_constants.ts";
import { emptyParts } from "./step_parts.ts";
import { rewriteBody } from "./rewrite_body.ts";
import { rewriteUrl } from "./rewrite_url.ts";
import { madeIdsIn, sentHeaderText } from "./made_ids.ts";
import type { Correlator } from "./state.ts";
import { writtenLater } from "./writes.ts";
import { webSocketOf } from "../har_websocket.ts";
import { addWebSocketStep } from "./websocket_step.ts";
import { isEventStream, sseMap } from "./sse_step.ts";
import { grpcMap, isGrpcCall } from "../har_grpc.ts";
import { sendsPassword } from "./password_fields.ts";
import { addsAccount } from "./chosen_passwords.ts";
import { filledLater } from "./filled_later.ts";
import { createdWithout } from "./created_without.ts";
import { isRpcLogin } from "./rpc_logins.ts";
import { changesLater } from "./rpc_state.ts";
import { movesOn } from "./moved_on.ts";
import { checkRpcError } from "./rpc_errors.ts";
import { addWriteVerdict } from "../write_verdict.ts";

/**
 * Builds the step of `records` and adds it to `c.steps`.
 *
 * @example
 * ```ts
 * import { addStep } from "./steps.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * import { loadBodies } from "../har_bodies.ts";
 * import { parseHar } from "../har_model.ts";
 * const { records } = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "GET", url: "https://a.test/api/orders" }, response: { status: 200, content: { mimeType: "application/json", text: "[]" } } },
 * ] } }), []);
 * loadBodies(records, []);
 * const c = newCorrelator("a");
 * addStep(c, records);
 * if (c.steps[0].name !== "list_orders") throw new Error(c.steps[0].name);
 * ```
 */
export function addStep(c: Correlator, records: HarRecord[], loop?: Step["loop"]): void {
  const first = records[0];
  const socket = webSocketOf(first);
  if (socket) return addWebSocketStep(c, first, socket);
  // Named without a segment's path parameters: a servlet container's `upload;jsessionid=…`
  // would write part of the session id into the step's name.
  const segments = first.url.pathname.split("/").map((s) => safeDecode(s.split(";")[0]))
    .filter((s) => s !== "");
  const isId = (s: string) => isIdSegment(c, s);
  // A path that says login is one unless the evidence says otherwise (login_evidence.ts).
  const login = c.loginRecords.has(first) ||
    (first.method === "POST" && !c.notLogins.has(first) &&
      (isAuthPath(first.url.pathname) || sendsPassword(c.passwordFields, first) ||
        isRpcLogin(first)));
  // A form that adds an account sends a password too, but one the run chooses: it logs no one in.
  const named = login && !addsAccount(c, first);
  const step: Step = {
    name: c.stepNames.take(shortName(nameOf(first, segments, isId, named))),
    records,
    first,
    last: records[records.length - 1],
    noun: named ? "login" : resourceNoun(segments, isId),
    method: first.method,
    ...emptyParts(),
    loop,
  };
  // A gRPC call's origin is its target, on a var of its own (har_grpc.ts): no base URL for it.
  step.url = isGrpcCall(first) ? first.url.href : rewriteUrl(c, first, step);
  step.headers = c.rules.headers(first, step);
  rewriteBody(c, first, step, login);
  addWaits(c, step);
  remember(c, first);
  rememberFields(c, first);
  const { earlier, created } = answersBefore(c, records);
  // An event stream never ends as a body does: read as an sse step, for a bounded time.
  if (isEventStream(first)) step.sse = sseMap(first, step);
  // A gRPC call in flowrun's HAR: sent as an HTTP request it would fail (har_grpc.ts).
  if (isGrpcCall(first)) step.grpc = grpcMap(c, first, step);
  const handedOut = (key: string) => c.rules.producerFor(key) !== undefined;
  const later = filledLater(c, records, created.records);
  const without = createdWithout(c, step.last);
  const skipped = (key: string) => handedOut(key) || later(key) || without(key);
  // An answer of work the server went on with (moved_on.ts) is a moment of it: no word pinned.
  const changes = (key: string, r: HarRecord) =>
    writtenLater(c, key, r) || changesLater(c, key, r) || movesOn(c, r);
  addAssertions(step, c.secrets, changes, earlier, created.keys, skipped);
  expectGenerated(c, step);
  // A delta (sequences.ts) holds what changed since, which a replay may not have changed.
  const sequence = c.deltas.get(step);
  if (sequence !== undefined) step.checks = step.checks.filter((k) => k.path[0] === sequence);
  // A JSON-RPC call's failure comes with HTTP 200: its answer's `error` tells it (rpc_errors.ts).
  checkRpcError(step.last, step.checks);
  // A write refused with a 200 says so in its text: what marked success is checked too.
  addWriteVerdict(step, changes, c.pages);
  c.rules.produce(step);
  c.steps.push(step);
}

/** The waits and retries the recording shows the step needs (each rule's file says its evidence). */
function addWaits(c: Correlator, step: Step): void {
  retryLaterMade(c, step);
  retryAfterRestart(c, step);
  awaitShown(c, step);
  awaitListed(c, step);
  retryRateLimited(step);
}

/**
 * A check that expects a value the run sends afresh (a name the client
 * chose, client_names.ts) expects what this run sent: the same var.
 */
function expectGenerated(c: Correlator, step: Step): void {
  for (const check of step.checks) {
    if (check.op !== "equals" || typeof check.value !== "string") continue;
    const sent = c.generated.get(check.value);
    // One var, the same all run long; never a `${RANDOM.…}` drawn anew at each use.
    if (sent && /^\$\{[^}]+\}$/.test(sent) && !sent.includes("RANDOM.")) check.value = sent;
  }
}

/**
 * One correlator's recorded answers: by request (method and URL), the keys
 * they held; by what a create answered (or sent), the creates and their keys.
 */
interface Answers {
  byRequest: Map<string, AnswerKeys>;
  made: Map<string, Created>;
}

/** The creates that answered one value under one path, in order, and the keys they held. */
interface Created {
  records: HarRecord[];
  keys: AnswerKeys;
}

const answersOf = new WeakMap<Correlator, Answers>();

/**
 * The answers recorded so far of the same request (method and URL), this
 * step's included, and those that created what it reads (`createdBy`).
 * Each list grows in place and is counted as it grows (answer_keys.ts): a
 * request repeated thousands of times, copied or walked anew per step, made
 * the conversion quadratic in the repeats.
 */
function answersBefore(c: Correlator, records: HarRecord[]) {
  const first = records[0];
  const answers = answersOf.get(c) ?? { byRequest: new Map(), made: new Map() };
  answersOf.set(c, answers);
  const request = `${first.method} ${first.url.href}`;
  const earlier = answers.byRequest.get(request) ?? new AnswerKeys();
  answers.byRequest.set(request, earlier);
  for (const r of records) earlier.add(r);
  // Creates by path, without their query, for the reads of what they made.
  // Each by the values it answered (or sent), so a read finds its create at once.
  const made = `${first.url.origin}${first.url.pathname.replace(/\/$/, "")}`;
  for (const p of first.method === "POST" ? records : []) {
    const json = p.hasJson ? p.json : sentJson(p);
    if (json === null || typeof json !== "object") continue;
    for (const v of new Set(Object.values(json).map(String).filter((v) => v.length < 2048))) {
      const key = `${made}\n${v}`;
      const list = answers.made.get(key) ?? { records: [], keys: new AnswerKeys() };
      answers.made.set(key, list);
      list.records.push(p);
      list.keys.add(p);
    }
  }
  return { earlier, created: createdBy(answers, first) };
}

/**
 * The recorded answers that created what a request reads: a POST to its
 * parent path that answered the last segment (`POST …/features` answering
 * `"name": "checkout-redesign"` for `GET …/features/checkout-redesign`), or
 * that sent it and has no JSON answer recorded (a page that navigated away
 * at once leaves Playwright's HAR without the body): no evidence then of
 * what the resource held from the start.
 */
function createdBy(answers: Answers, r: HarRecord): Created {
  const path = r.url.pathname.replace(/\/$/, "");
  const last = safeDecode(path.slice(path.lastIndexOf("/") + 1));
  const parent = `${r.url.origin}${path.slice(0, path.lastIndexOf("/"))}`;
  return answers.made.get(`${parent}\n${last}`) ?? { records: [], keys: new AnswerKeys() };
}

/** The JSON body `r` sent, or undefined. */
function sentJson(r: HarRecord): unknown {
  try {
    return r.bodyText ? JSON.parse(r.bodyText) : undefined;
  } catch {
    return undefined;
  }
}

/** What the step does: opens a page, logs in, runs an operation, or acts on a resource. */
function nameOf(
  first: HarRecord,
  segments: string[],
  isId: (s: string) => boolean,
  login: boolean,
): string {
  const page = first.method === "GET" && /html/.test(first.mimeType)
    ? `open_${snake(segments.filter((s) => !isId(s)).at(-1) ?? "") || "home"}`
    : undefined;
  return page ?? authStepName(first, login) ?? operationName(first) ??
    stepName(first.method, segments, isId);
}

/** Remembers what the client sent, so a response echoing it is not taken as its source. */
function remember(c: Correlator, r: HarRecord): void {
  // An id the browser made in a header or a text body, which a listing echoes later.
  for (const [id] of madeIdsIn(c, `${sentHeaderText(r)} ${r.bodyText ?? ""}`)) {
    c.sentSeen.add(valueKey(id));
  }
  for (const s of r.url.pathname.split("/")) c.sentSeen.add(valueKey(safeDecode(s)));
  for (const [, v] of r.url.searchParams) c.sentSeen.add(valueKey(v));
  if (r.bodyText) {
    try {
      walk(parseBody(r.bodyText), (_p, _k, leaf) => c.sentSeen.add(valueKey(leaf)));
    } catch {
      // Not JSON: form values were remembered through the generated map, if at all.
    }
  }
}
