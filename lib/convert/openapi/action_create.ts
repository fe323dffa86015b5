/**
 * An item made by an action on its collection: a POST one segment under
 * the collection the item belongs to (`POST /sleeps/start` beside
 * `/sleeps/{sleepLogId}`), documented to answer 201 Created with a member
 * of the parameter's very name (`data.sleepLogId`). An id named like a
 * member of any create's answer is otherwise not read from it (a comment's
 * create answers the `postId` of another thing); this one the action made,
 * by its status, its place and the name it answers.
 *
 * @module
 */
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { successes } from "./responses.ts";

/** A create's answer holding a member of the parameter's name, and where. */
export interface NamedAnswer {
  producer: OpenApiOperation;
  path: string[];
}

/**
 * The link of `{param}` of `op` from an action beside it that answers 201
 * with a member of its name (`byName`: the creates' answers by plain name), if there is one.
 *
 * @example
 * ```ts
 * import { actionCreate } from "./action_create.ts";
 * const start = { method: "POST", template: "/sleeps/start", node: { responses: { "201": {} } } };
 * const end = { method: "PUT", template: "/sleeps/{sleepLogId}/end", node: {} };
 * const byName = new Map([["sleeplogid", [{ producer: start as never, path: ["data", "sleepLogId"] }]]]);
 * const link = actionCreate({}, byName, end as never, "sleepLogId");
 * if (link?.producer !== (start as never) || link.path.join() !== "data,sleepLogId") throw new Error();
 * if (actionCreate({}, byName, { ...end, template: "/logs/{sleepLogId}" } as never, "sleepLogId")) throw new Error();
 * ```
 */
export function actionCreate(
  doc: unknown,
  byName: ReadonlyMap<string, readonly NamedAnswer[]>,
  op: OpenApiOperation,
  param: string,
): ParamLink | undefined {
  const at = op.template.indexOf(`/{${param}}`);
  if (at <= 0) return undefined;
  const collection = op.template.slice(0, at);
  const made = byName.get(plainName(param))?.find(({ producer }) =>
    producer !== op && producer.method === "POST" && !producer.template.includes("{") &&
    producer.template.replace(/\/[^/]+\/?$/, "") === collection &&
    successes(doc, producer.node).statuses.includes(201)
  );
  return made && { param, producer: made.producer, path: made.path, from: "property" };
}
