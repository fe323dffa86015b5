/**
 * The thing an RPC function's name names, as the document describes it
 * elsewhere: Etherpad's `appendChatMessage` takes `padID`, `text`,
 * `authorID` and `time`, every one optional, and refuses a message with no
 * text ("text is not a string"); nothing about the function says so, but
 * the document's `getChatHistory` answers `messages`, a list of objects
 * holding `text`, `userId`, `userName` and `time`. The words of the name
 * after its verb, or its last few (`chat message`, `message`), name the
 * thing; a property of the document of that name (or its plural) whose
 * object, or list's items, has properties describes it, and a parameter
 * named like one of those is a part of the thing the call makes.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { properties } from "./schema_properties.ts";

/** Nodes read at most when a document is searched (a large one stops there). */
const MAX_NODES = 200_000;

/** Each document's described things: a property's plain name → the plain names it holds. */
const thingsOf = new WeakMap<Node, Map<string, Set<string>>>();

/** Adds each of `props` that holds an object (or a list of them) with properties. */
function addThings(doc: Node, props: Node, things: Map<string, Set<string>>): void {
  for (const [name, schema] of Object.entries(props)) {
    const s = deref(doc, schema);
    const held = properties(doc, isNode(s) && s.type === "array" ? s.items : s);
    if (held.length === 0) continue;
    const set = things.get(plainName(name)) ?? new Set<string>();
    for (const [key] of held) set.add(plainName(key));
    things.set(plainName(name), set);
  }
}

/** Every property of `doc` that holds an object (or a list of them) with properties. */
function describedThings(doc: Node): Map<string, Set<string>> {
  const known = thingsOf.get(doc);
  if (known) return known;
  const things = new Map<string, Set<string>>();
  const queue: unknown[] = [doc];
  for (let read = 0; read < queue.length && read < MAX_NODES; read++) {
    const node = queue[read];
    if (!isNode(node) && !Array.isArray(node)) continue;
    if (isNode(node) && isNode(node.properties)) addThings(doc, node.properties, things);
    for (const value of Object.values(node)) if (typeof value === "object") queue.push(value);
  }
  thingsOf.set(doc, things);
  return things;
}

/**
 * A name's words, lower case: `setHTML` → set, html; `set_chat_head` → set, chat, head.
 *
 * @example
 * ```ts
 * import { nameWords } from "./named_thing.ts";
 * if (nameWords("setHTMLText").join() !== "set,html,text") throw new Error();
 * ```
 */
export function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== "");
}

/**
 * The thing `op`'s function name names (its words after the verb, or the
 * last of them) that the document describes as holding `param`, in words
 * (`chat message`), or undefined.
 *
 * @example
 * ```ts
 * import { namedThing } from "./named_thing.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const message = { properties: { text: { type: "string" }, time: { type: "integer" } } };
 * const doc = { components: { schemas: { History: { properties: {
 *   messages: { type: "array", items: message },
 * } } } } };
 * const op = { template: "/appendChatMessage", node: {} } as OpenApiOperation;
 * if (namedThing(doc, op, "text") !== "message") throw new Error();
 * if (namedThing(doc, op, "authorID") !== undefined) throw new Error();
 * ```
 */
export function namedThing(doc: Node, op: OpenApiOperation, param: string): string | undefined {
  const last = op.template.split("/").filter((s) => s !== "").at(-1) ?? "";
  const said = nameWords(last).slice(1);
  const things = describedThings(doc);
  const plain = plainName(param);
  for (let i = 0; i < said.length; i++) {
    const thing = said.slice(i).join("");
    const held = things.get(thing) ?? things.get(`${thing}s`);
    if (held?.has(plain)) return said.slice(i).join(" ");
  }
  return undefined;
}
