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
 * if (nounIds("/addOrder", "id").length !== 0) throw new Error();
 * if (nounIds("/users", "userId").length !== 0 || nounIds("/users/{id}/do-it", "id").length !== 0) throw new Error();
 * ```
 */
export function nounIds(template: string, param: string): string[] {
  if (!/^id$/i.test(param)) return [];
  const collection = template.replace(/\/$/, "").split("/").at(-1) ?? "";
  // One plain word: `addOrder` is a verb and its noun (tag_create.ts), no collection.
  if (!/^[A-Za-z][a-z]+$/.test(collection)) return [];
  const noun = collection.replace(/ies$/, "y").replace(/(s|x|ch|sh)es$/, "$1")
    .replace(/(?<!s)s$/, "");
  return [`${noun}Id`, `${noun}_id`];
}
