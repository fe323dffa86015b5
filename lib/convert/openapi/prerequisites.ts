/**
 * What each operation needs run before it, and a flow's operations with
 * those added and ordered. A flow is one tag's operations, but what they
 * read may be made under another tag (Conduit's comments need an article,
 * every protected operation a signed-in user), so a flow gets its own copy
 * of each producer it reads from, transitively, as RESTler builds a
 * sequence: the producers of its path parameters, the login whose token is
 * its credential (or the registration, when its answer holds the token),
 * and the registration that login signs in with. Within the flow the usual
 * order (creates, reads, updates, deletes last) holds where the producers
 * allow it; a producer always comes before what reads it.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { deletesAccount } from "./account_delete.ts";
import { deletesBeforeSources } from "./dependent_deletes.ts";
import { type Login, tokenGiver } from "./login.ts";
import { type OpenApiOperation, stepOrder } from "./operations.ts";
import type { ParamLink } from "./producers.ts";
import type { BodyLink } from "./body_links.ts";
import { listedProducers } from "./listed_producers.ts";
import { readsBeforeEnd } from "./read_before_end.ts";
import { listingsAfterCreates } from "./listed_after_create.ts";
import { signOutLast } from "./sign_out.ts";
import { usesLogin } from "./uses_login.ts";

// Where it lived first: its importers read it from here too.
export { usesLogin };

/** What the converter inferred: each operation's parameter and body producers, and the login. */
export interface Inferred {
  params: Map<OpenApiOperation, ParamLink[]>;
  body?: Map<OpenApiOperation, BodyLink[]>;
  login?: Login;
  /** Each open sign-in that is no suite's login, and its sign-up (`signin_signup.ts`). */
  signUps?: Map<OpenApiOperation, OpenApiOperation>;
  /** The summary's line of each cookie parameter sent the login's cookie (server_cookie.ts). */
  serverCookies?: Set<string>;
}

/** The operations `op` reads from. */
export function dependencies(
  op: OpenApiOperation,
  doc: Node,
  inferred: Inferred,
): OpenApiOperation[] {
  const links = [...inferred.params.get(op) ?? [], ...inferred.body?.get(op) ?? []];
  const out = links.flatMap((l) => l.after ? [l.after, l.producer] : [l.producer]);
  const { login } = inferred;
  if (login && usesLogin(op.node, doc, login) && op !== login.op) out.push(tokenGiver(login));
  if (login?.register && op === login.op) out.push(login.register);
  // Another open sign-in signs in as the account the run's sign-up makes (signin_signup.ts).
  const signUp = inferred.signUps?.get(op);
  if (signUp) out.push(signUp);
  // A sign-up in two creates: the login uses the password the second sets (nested_signup.ts).
  if (login?.credentials && op === login.op) out.push(login.credentials);
  if (login?.credentials && op === login.credentials) out.push(login.register!);
  // The second sign-up runs after the first, which says whether it is needed (second_signup.ts);
  // in its own flow it has no first, so it runs there, with that flow's own account.
  if (login?.alternate && op === login.op) out.push(login.register!, login.alternate);
  return [...new Set(out)].filter((o) => o !== op);
}

/**
 * The creates of the items `op`'s body lists names of (listed_producers.ts),
 * but none that reads from `op` itself, transitively: a group's create
 * listing its members does not wait for a member's create, which reads the
 * group. Not a dependency (`dependencies`): an operation whose list keeps
 * the document's names still runs, and may be copied into another flow.
 */
function listedOf(op: OpenApiOperation, doc: Node, inferred: Inferred): OpenApiOperation[] {
  const memo = listedMemo.get(inferred) ?? listedMemo.set(inferred, new Map()).get(inferred)!;
  const known = memo.get(op);
  if (known) return known;
  const out = listedProducers(doc, op, inferred.params).filter((p) => {
    const seen = new Set([p]);
    const stack = [p];
    while (stack.length > 0) {
      for (const d of dependencies(stack.pop()!, doc, inferred)) {
        if (d === op) return false;
        if (seen.has(d)) continue;
        seen.add(d);
        stack.push(d);
      }
    }
    return true;
  });
  memo.set(op, out);
  return out;
}

/** Each conversion's {@linkcode listedOf}, by its inferred links. */
const listedMemo = new WeakMap<Inferred, Map<OpenApiOperation, OpenApiOperation[]>>();

/**
 * A flow's operations with every producer they read from (transitively),
 * producers first, otherwise in `stepOrder`; and how many were added.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { withPrerequisites } from "./prerequisites.ts";
 * const ops = operationsOf({ paths: { "/a": { post: {} }, "/a/{id}": { get: {} } } });
 * const got = withPrerequisites([ops[1]], {}, { params: new Map([[ops[1], [{ param: "id", producer: ops[0], path: ["id"], from: "parent" }]]]) });
 * if (got.ops.join() !== [ops[0], ops[1]].join() || got.added !== 1) throw new Error();
 * ```
 */
export function withPrerequisites(
  group: OpenApiOperation[],
  doc: Node,
  inferred: Inferred,
): { ops: OpenApiOperation[]; added: number } {
  const all = withProducers(group, doc, inferred);
  const out = producersFirst(stepOrder([...all]), doc, inferred);
  // A sign-out ends the session the steps after it sign in with; only the account's delete follows.
  const signedOut = inferred.login ? signOutLast(out) : out;
  return { ops: accountDeleteLast(signedOut, doc, inferred.login), added: all.size - group.length };
}

/** The flow's steps with the DELETE of the signed-in account last (`account_delete.ts`). */
function accountDeleteLast(
  ops: OpenApiOperation[],
  doc: Node,
  login: Login | undefined,
): OpenApiOperation[] {
  if (!login) return ops;
  const last = (op: OpenApiOperation) =>
    usesLogin(op.node, doc, login) && deletesAccount(doc, op, login);
  return [...ops.filter((op) => !last(op)), ...ops.filter(last)];
}

/**
 * The group and every grounded operation it reads from, transitively; the
 * login always: a step's auth block reads its token, so a flow without it
 * does not load (Just Eat's login has a path parameter nothing produces,
 * which its copy takes from a placeholder, as in its own flow).
 */
function withProducers(
  group: OpenApiOperation[],
  doc: Node,
  inferred: Inferred,
): Set<OpenApiOperation> {
  const all = new Set(group);
  const queue = [...group];
  const grounded = new Grounded(doc, inferred);
  for (let i = 0; i < queue.length; i++) {
    const op = queue[i];
    for (const dep of [...dependencies(op, doc, inferred), ...listedOf(op, doc, inferred)]) {
      const token = inferred.login &&
        (dep === inferred.login.op || dep === tokenGiver(inferred.login));
      if (!all.has(dep) && (grounded.has(dep) || token)) {
        all.add(dep);
        queue.push(dep);
      }
    }
  }
  return all;
}

/**
 * The operations (in `stepOrder`) reordered so each comes after what it reads:
 * Kahn's algorithm, the ready operation first in stepOrder first; a cycle places the first left.
 */
function producersFirst(
  ordered: OpenApiOperation[],
  doc: Node,
  inferred: Inferred,
): OpenApiOperation[] {
  const { waiting, readers } = dependencyEdges(ordered, doc, inferred);
  const ready = new MinHeap();
  for (const [i, n] of waiting.entries()) if (n === 0) ready.push(i);
  const placed = ordered.map(() => false);
  const out: OpenApiOperation[] = [];
  let first = 0;
  while (out.length < ordered.length) {
    let next = ready.pop();
    if (next === undefined) {
      while (placed[first]) first++;
      next = first;
    }
    if (placed[next]) continue;
    placed[next] = true;
    out.push(ordered[next]);
    for (const r of readers[next]) if (--waiting[r] === 0 && !placed[r]) ready.push(r);
  }
  return out;
}

/**
 * The dependency graph among `ordered`, by index: how many of them each one
 * waits for, and the readers of each.
 */
function dependencyEdges(
  ordered: OpenApiOperation[],
  doc: Node,
  inferred: Inferred,
): { waiting: number[]; readers: number[][] } {
  const index = new Map(ordered.map((o, i) => [o, i]));
  const waiting = ordered.map(() => 0);
  const readers = ordered.map((): number[] => []);
  // A second sign-up follows the first where both are (second_signup.ts), not pulling it in.
  const { login } = inferred;
  const after = (op: OpenApiOperation) => op === login?.alternate ? [login.register!] : [];
  const reads = (
    op: OpenApiOperation,
  ) => [...dependencies(op, doc, inferred), ...listedOf(op, doc, inferred), ...after(op)];
  for (const [i, op] of ordered.entries()) {
    for (const dep of new Set(reads(op))) {
      const d = index.get(dep);
      if (d === undefined) continue;
      waiting[i]++;
      readers[d].push(i);
    }
  }
  // What reads an item before what ends it (read_before_end.ts).
  const links = (op: OpenApiOperation) => inferred.params.get(op) ?? [];
  const before = (first: OpenApiOperation, then: OpenApiOperation) => {
    waiting[index.get(then)!]++;
    readers[index.get(first)!].push(index.get(then)!);
  };
  for (const [reader, ender] of readsBeforeEnd(ordered, links, reads)) before(reader, ender);
  // A listing read for what a create made after that create (listed_after_create.ts).
  for (const [create, listing] of listingsAfterCreates(ordered, links)) before(create, listing);
  // An item's DELETE before those of what its create read (dependent_deletes.ts).
  const known = new Map<OpenApiOperation, OpenApiOperation[]>();
  const memo = (op: OpenApiOperation) => known.get(op) ?? known.set(op, reads(op)).get(op)!;
  for (const [first, then] of deletesBeforeSources(ordered, links, memo)) before(first, then);
  return { waiting, readers };
}

/**
 * Whether an operation can run on what the suite makes itself: each of its
 * path parameters has a producer that can (and its credential a login that
 * can). Only such a producer is copied into another flow: a copy that reads
 * a value nobody makes (a guild id no operation creates) would fail there
 * as it does in its own flow, and only lengthen it.
 */
class Grounded {
  readonly #known = new Map<OpenApiOperation, boolean>();

  constructor(readonly doc: Node, readonly inferred: Inferred) {}

  has(op: OpenApiOperation): boolean {
    const known = this.#known.get(op);
    if (known !== undefined) return known;
    // A cycle is not grounded: assumed so while it is being decided.
    this.#known.set(op, false);
    const params = [...op.template.matchAll(/\{([^}]+)\}/g)].length;
    // A query parameter's producer is a dependency too, but only the path's are counted.
    const links = (this.inferred.params.get(op) ?? []).filter((l) =>
      op.template.includes(`{${l.param}}`)
    );
    const ok = links.length === params &&
      dependencies(op, this.doc, this.inferred).every((d) => this.has(d));
    this.#known.set(op, ok);
    return ok;
  }
}

/** The smallest number first. */
class MinHeap {
  readonly #items: number[] = [];

  push(n: number): void {
    const a = this.#items;
    a.push(n);
    for (let i = a.length - 1; i > 0;) {
      const up = (i - 1) >> 1;
      if (a[up] <= a[i]) break;
      [a[up], a[i]] = [a[i], a[up]];
      i = up;
    }
  }

  pop(): number | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || last === undefined) return top;
    a[0] = last;
    for (let i = 0;;) {
      const l = 2 * i + 1, r = l + 1;
      let min = i;
      if (l < a.length && a[l] < a[min]) min = l;
      if (r < a.length && a[r] < a[min]) min = r;
      if (min === i) break;
      [a[min], a[i]] = [a[i], a[min]];
      i = min;
    }
    return top;
  }
}
