/**
 * An item addressed under a verb after its collection's noun: small
 * FastAPI and Express APIs route `GET /post/get/{id}`, `PUT
 * /post/update/{id}` and `GET /post/delete/{id}` beside `POST /post`. The
 * path is the document's only word of what the parameter names: the item of
 * the noun's collection (`/post`), which its create makes; and under a
 * delete verb the operation removes it, whatever its method, so it runs
 * after the reads of the item. Only a verb alone as the segment right
 * before the path's last parameter, after a noun's segment: `/users/{id}/get`
 * or `/search/{q}` say nothing of the kind. The same projects make the item
 * with a create verb after the noun (NestJS's `POST /bookmark/create` beside
 * `/bookmark/{id}`, Express's `POST /note/add` beside `/note/get/{id}`): an
 * item of the noun's collection, made first (`madeCollection`); so does a
 * registration under a noun other paths use (`/users/register` beside
 * `/users/{id}`: the run's own account, not the first listed).
 *
 * @module
 */

const READS = /^(get|read|show|view|find|detail|details)$/i;
const UPDATES = /^(update|edit|modify|change)$/i;
const DELETES = /^(delete|remove|destroy|drop|purge)$/i;
const CREATES = /^(create|add|new|insert|save|store|register)$/i;

/**
 * Whether a path segment is a verb of the kinds above (`add`, `remove`, `get`), no noun.
 *
 * @example
 * ```ts
 * import { verbWord } from "./verb_segments.ts";
 * if (!verbWord("add") || !verbWord("Remove") || verbWord("messages")) throw new Error();
 * ```
 */
export function verbWord(segment: string): boolean {
  return [READS, UPDATES, DELETES, CREATES].some((verb) => verb.test(segment));
}

/** The item a verb segment addresses: its collection's path, and what the verb does. */
export interface VerbItem {
  collection: string;
  verb: "read" | "update" | "delete";
}

/**
 * The collection and verb of a template ending in `/{noun}/{verb}/{param}`
 * (`param` that last parameter when given), else undefined.
 *
 * @example
 * ```ts
 * import { verbItem } from "./verb_segments.ts";
 * const item = verbItem("/post/delete/{id}");
 * if (item?.collection !== "/post" || item.verb !== "delete") throw new Error();
 * if (verbItem("/api/todo/get/{id}", "id")?.collection !== "/api/todo") throw new Error();
 * if (verbItem("/posts/{id}") || verbItem("/users/{id}/get") || verbItem("/{a}/delete/{id}")) {
 *   throw new Error();
 * }
 * ```
 */
export function verbItem(template: string, param?: string): VerbItem | undefined {
  const segments = template.replace(/\/$/, "").split("/");
  const last = segments.length - 1;
  if (last < 3 || !/^\{[^}]+\}$/.test(segments[last])) return undefined;
  if (param !== undefined && segments[last] !== `{${param}}`) return undefined;
  const noun = segments[last - 2];
  if (noun === "" || noun.startsWith("{")) return undefined;
  const word = segments[last - 1];
  const verb = DELETES.test(word)
    ? "delete"
    : UPDATES.test(word)
    ? "update"
    : READS.test(word)
    ? "read"
    : undefined;
  return verb && { collection: segments.slice(0, last - 1).join("/"), verb };
}

/**
 * The collection a template ending in `/{noun}/{verb}` makes an item of, the
 * verb a create's (`/bookmark` of `/bookmark/create`), else undefined. Only
 * the path's word: the caller holds the evidence that the noun is a
 * collection (its items or its listing elsewhere in the document).
 *
 * @example
 * ```ts
 * import { madeCollection } from "./verb_segments.ts";
 * if (madeCollection("/api/bookmark/create") !== "/api/bookmark") throw new Error();
 * if (madeCollection("/note/add/") !== "/note") throw new Error();
 * if (madeCollection("/events/register") !== "/events") throw new Error();
 * if (madeCollection("/create") || madeCollection("/{org}/new") || madeCollection("/x/created")) {
 *   throw new Error();
 * }
 * ```
 */
export function madeCollection(template: string): string | undefined {
  const segments = template.replace(/\/$/, "").split("/");
  const last = segments.length - 1;
  if (last < 2 || !CREATES.test(segments[last])) return undefined;
  const noun = segments[last - 1];
  return noun === "" || noun.startsWith("{") ? undefined : segments.slice(0, last).join("/");
}

/**
 * The collection a create makes an item of, no trailing slash: its path's
 * noun under a create verb (`/bookmark` of `POST /bookmark/create`), else its path.
 * A path the document uses as a collection itself (`ownPath`: read too, or
 * with items under it, as `GET|POST /document-store/store` beside
 * `/document-store/store/{id}`) is its own, whatever its last word.
 *
 * @example
 * ```ts
 * import { createdIn } from "./verb_segments.ts";
 * if (createdIn({ template: "/bookmark/create", role: "create" }) !== "/bookmark") throw new Error();
 * if (createdIn({ template: "/bookmark/create" }) !== "/bookmark/create") throw new Error();
 * if (createdIn({ template: "/pets/", role: "create" }) !== "/pets") throw new Error();
 * const own = { template: "/docs/store", role: "create", ownPath: true } as const;
 * if (createdIn(own) !== "/docs/store") throw new Error();
 * ```
 */
export function createdIn(op: { template: string; role?: string; ownPath?: true }): string {
  const path = op.template.replace(/\/$/, "");
  return (op.role === "create" && !op.ownPath ? madeCollection(path) : undefined) ?? path;
}
