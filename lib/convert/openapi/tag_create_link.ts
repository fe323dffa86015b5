/**
 * A path parameter read from its tag's one create where no path names a
 * collection (`tag_create.ts`): `{id}` of `PUT /updateOrder/{id}` from
 * `POST /addOrder`'s answer, the member it describes, else one searched for
 * in an answer it leaves undescribed (`undescribed_answer.ts`). The last
 * of the producers' rules: any other evidence wins.
 *
 * @module
 */
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";
import { tagMaker } from "./tag_create.ts";
import { searchedLink } from "./undescribed_answer.ts";

/**
 * The link of `param` of `op` to its tag's create, if the tag has one;
 * `pathIn` gives the member of a producer's described answer naming it.
 *
 * @example
 * ```ts
 * import { tagMakerLink } from "./tag_create_link.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const add = { method: "POST", template: "/addOrder", tag: "Orders", makesTag: true,
 *   node: { responses: { "201": { description: "Added" } } } } as unknown as OpenApiOperation;
 * const put = { method: "PUT", template: "/updateOrder/{id}", tag: "Orders", node: {} } as unknown as OpenApiOperation;
 * const link = tagMakerLink({}, [add, put], put, "id", () => undefined);
 * if (link?.producer !== add || link.search?.join() !== "id") throw new Error(JSON.stringify(link?.search));
 * const described = tagMakerLink({}, [add, put], put, "id", () => ["order", "id"]);
 * if (described?.path.join() !== "order,id") throw new Error();
 * ```
 */
export function tagMakerLink(
  doc: unknown,
  ops: readonly OpenApiOperation[],
  op: OpenApiOperation,
  param: string,
  pathIn: (producer: OpenApiOperation) => string[] | undefined,
): ParamLink | undefined {
  const producer = tagMaker(ops, op);
  if (!producer) return undefined;
  const path = pathIn(producer);
  if (path) return { param, producer, path, from: "parent" };
  return searchedLink(doc, producer, param);
}
