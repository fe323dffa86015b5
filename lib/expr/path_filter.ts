/**
 * JSONPath filters (`[?…]`) whose cost the body sets: evaluated on the
 * calling thread when the work is provably small, else on the helper thread
 * under the time limit of `matches` (`_util/time_guard.ts`), the document
 * sent once and kept there for the next paths on it.
 *
 * @module
 */
import {
  type GuardedTask,
  GuardError,
  MATCH_TIME_LIMIT_MS,
  runGuarded,
} from "../_util/time_guard.ts";
import { FILTER_DESCENT_LIMIT } from "./path_compile.ts";
import { descend, evaluate } from "./_path_walk.ts";
import { functionSource } from "../_util/function_source.ts";

/**
 * Filters run on the helper thread of lib/_util/time_guard.ts: json-p3 and the
 * two functions of `_path_walk.ts`, the document sent once (as JSON text) and kept there for
 * the next paths on it. Its errors come back as results, by kind.
 */
const FILTER_SOURCE = `
const { p3 } = libs;
const environment = new p3.JSONPathEnvironment({ maxRecursionDepth: ${FILTER_DESCENT_LIMIT} });
const queries = new Map();
let held = { id: -1, document: undefined };
${functionSource(evaluate, "evaluate")}
${functionSource(descend, "descend")}
return ({ id, source, text, sent }) => {
  if (sent) held = { id, document: text === undefined ? undefined : JSON.parse(text) };
  else if (held.id !== id) return { need: true };
  let query = queries.get(source);
  if (!query) {
    if (queries.size >= 1000) queries.clear();
    query = environment.compile(source);
    queries.set(source, query);
  }
  try {
    return { values: JSON.stringify(evaluate(query, held.document, p3.JSONPathNode)) };
  } catch (error) {
    if (error instanceof p3.JSONPathRecursionLimitError) return { failed: "recursion" };
    if (error instanceof RangeError) return { failed: "range" };
    return { failed: String(error && error.message || error) };
  }
};
`;

let filterTask: GuardedTask | undefined;
/** Each document's number, by which the helper thread knows the one it holds. */
const documentIds = new WeakMap<object, number>();
let nextDocument = 0;
/** Documents a filter ran out of time on: the next filters on them are not tried. */
const spentDocuments = new WeakSet<object>();

/**
 * Why a filter path did not finish in time, as a thrown error that `select`
 * in `path.ts` words.
 *
 * @example
 * ```ts
 * import { FilterTimeout } from "./path_filter.ts";
 * if (!(new FilterTimeout("did not finish") instanceof Error)) throw new Error();
 * ```
 */
export class FilterTimeout extends Error {}

/**
 * The helper thread's json-p3 reached {@linkcode FILTER_DESCENT_LIMIT}.
 *
 * @example
 * ```ts
 * import { FilterTooDeep } from "./path_filter.ts";
 * if (!(new FilterTooDeep() instanceof Error)) throw new Error();
 * ```
 */
export class FilterTooDeep extends Error {}

/** Work a filter may do on the calling thread (the document's nodes to the path's weight). */
const CHEAP_WORK = 100_000;

/**
 * Whether a filtered path is evaluated here: its work is at most the
 * document's node count to the power of its weight (each filter, `..` and
 * query may visit every node once per node of the one around it), and that
 * is small. A check group over 300,000 list items, each a document of a few
 * nodes, then costs no round trip to the helper per item.
 *
 * @example
 * ```ts
 * import { cheapHere } from "./path_filter.ts";
 * if (!cheapHere(1, [1, 2, 3])) throw new Error();
 * if (cheapHere(Infinity, [])) throw new Error("match() and search() always go to the helper");
 * if (cheapHere(2, Array.from({ length: 1000 }, (_, i) => i))) throw new Error();
 * ```
 */
export function cheapHere(weight: number, document: unknown): boolean {
  if (!Number.isFinite(weight)) return false;
  const most = Math.floor(CHEAP_WORK ** (1 / weight));
  let nodes = 0;
  const stack = [document];
  while (stack.length > 0) {
    const value = stack.pop();
    if (++nodes > most) return false;
    if (value !== null && typeof value === "object") {
      for (const child of Object.values(value)) stack.push(child);
    }
  }
  return true;
}

/**
 * A filter path's values, computed on the helper thread within the time
 * limit; throws {@linkcode FilterTimeout} past it.
 *
 * @example
 * ```ts
 * import { evaluateGuarded } from "./path_filter.ts";
 * import { prepareGuard } from "../_util/time_guard.ts";
 * await prepareGuard();
 * const names = evaluateGuarded("$[?@.n > 1].name", [{ n: 1, name: "a" }, { n: 2, name: "b" }]);
 * if (JSON.stringify(names) !== '["b"]') throw new Error(JSON.stringify(names));
 * ```
 */
export function evaluateGuarded(source: string, document: unknown): unknown[] {
  filterTask ??= {
    name: "jsonpath-filter",
    source: FILTER_SOURCE,
    imports: { p3: import.meta.resolve("json-p3") },
  };
  const object = document !== null && typeof document === "object" ? document : undefined;
  if (object && spentDocuments.has(object)) {
    throw new FilterTimeout(
      `was not tried: an earlier filter on the same document did not finish within ${
        MATCH_TIME_LIMIT_MS / 1000
      } s`,
    );
  }
  let got: FilterReply;
  try {
    got = askHelper(filterTask, source, document, object);
  } catch (error) {
    if (!(error instanceof GuardError)) throw error;
    if (error.code !== "check-timeout") throw new Error(error.message);
    if (object) spentDocuments.add(object);
    throw new FilterTimeout(
      `did not finish within ${MATCH_TIME_LIMIT_MS / 1000} s (a filter's cost grows with the ` +
        "body: a .. inside a filter, or a match() or search() pattern with nested quantifiers " +
        "such as (a+)+, can take far longer)",
    );
  }
  if (got.failed === "recursion") throw new FilterTooDeep();
  if (got.failed === "range") throw new RangeError("stack");
  if (got.failed !== undefined) throw new Error(got.failed);
  return got.values === undefined ? [] : JSON.parse(got.values);
}

/** What the helper thread answers: the values as JSON text, a failure, or that it needs the document. */
type FilterReply = { values?: string; failed?: string; need?: true };

/**
 * Runs the filter on the helper thread, sending the document only when the
 * helper does not hold it already (a document it saw is known by its number).
 */
function askHelper(
  task: GuardedTask,
  source: string,
  document: unknown,
  object: object | undefined,
): FilterReply {
  let id = object ? documentIds.get(object) : undefined;
  const known = id !== undefined;
  if (id === undefined) {
    id = nextDocument++;
    if (object) documentIds.set(object, id);
  }
  const got = (known ? runGuarded(task, { id, source }) : { need: true }) as FilterReply;
  if (!got.need) return got;
  // As JSON text: a structured copy recurses, and fails on a body nested 5,000 deep.
  const text = JSON.stringify(document);
  return runGuarded(task, { id, source, text, sent: true }) as FilterReply;
}
