/**
 * The names an undescribed create's answer may give its new item's
 * identifier by, beside `id`: the item's noun with `Id` or `_id` (`userId`,
 * `user_id` for `POST /users`). An Express users API answered its create
 * with `{message: "User added", userId}` while its item's paths said
 * `/users/{id}`: the answer names the identifier for the item the create
 * makes, so only the noun of the collection posted to counts (a post's
 * author's `userId` is no post's), searched after a plain `id`.
 *
 * @module
 */
import { listedSingular } from "../names.ts";

/**
 * `userId` and `user_id` for a create at `/users` whose item's parameter is
 * `param`, when `param` is a bare `id` and the collection is one plain word;
 * else none.
 *
 * @example
 * ```ts
 * import { nounIds } from "./noun_id.ts";
 * if (nounIds("/api/users", "id").join() !== "userId,user_id") throw new Error();
 * if (nounIds("/categories", "id").join() !== "categoryId,category_id") throw new Error();
 * if (nounIds("/indexes", "id").join() !== "indexId,index_id") throw new Error();
 * if (nounIds("/movies", "id").join() !== "movieId,movie_id") throw new Error();
 * if (nounIds("/statuses", "id").join() !== "statusId,status_id") throw new Error();
 * if (nounIds("/addOrder", "id").length !== 0) throw new Error();
 * if (nounIds("/users", "userId").length !== 0 || nounIds("/users/{id}/do-it", "id").length !== 0) throw new Error();
 * ```
 */
export function nounIds(template: string, param: string): string[] {
  if (!/^id$/i.test(param)) return [];
  const collection = template.replace(/\/$/, "").split("/").at(-1) ?? "";
  // One plain word: `addOrder` is a verb and its noun (tag_create.ts), no collection.
  if (!/^[A-Za-z][a-z]+$/.test(collection)) return [];
  const noun = nounOf(collection);
  return [`${noun}Id`, `${noun}_id`];
}

/**
 * The singular of a one-word collection, by one ending's rule: `statuses`
 * is a `status` (the "-es" cut, then no more), not a "statu". The words
 * step names spell otherwise (`movies`, `series`) are spelled alike here;
 * the listed singulars only cut the end, so the collection's own case is
 * kept.
 */
function nounOf(collection: string): string {
  const listed = listedSingular(collection.toLowerCase());
  if (listed !== undefined) return collection.slice(0, listed.length);
  if (/ies$/.test(collection)) return `${collection.slice(0, -3)}y`;
  if (/(s|x|ch|sh)es$/.test(collection)) return collection.slice(0, -2);
  return collection.replace(/(?<!s)s$/, "");
}
