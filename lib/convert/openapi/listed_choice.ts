/**
 * A path parameter whose schema lists the values it takes (`enum` of two or
 * more) is a choice among the document's words, not the key of an item a
 * run makes: every value it may hold is written in the document before any
 * item exists. A project manager on NestJS documents `PATCH /tasks/{status}`
 * (set every task's status, `status` of `enum: [Pendente, Em Progresso,
 * Concluída]`) beside `PUT /tasks/{id}`; read as a second name of the task,
 * `{id}` was taken from the created task's `status` and the update sent the
 * status word as the task's id (400 on every run). A one-value `enum` is a
 * segment (fixed_segment.ts) and stays what that rule says.
 *
 * @module
 */
import { isNode, type Node, OPENAPI_METHODS } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";

/** Whether `p` is a path parameter whose schema lists two or more values. */
function isChoice(doc: unknown, p: unknown): boolean {
  const param = deref(doc as Node, p);
  if (!isNode(param) || param.in !== "path") return false;
  const schema = deref(doc as Node, param.schema);
  return isNode(schema) && Array.isArray(schema.enum) && schema.enum.length > 1;
}

/**
 * The names of the path parameters of the document's path `template` that
 * list their values, wherever the path or one of its operations declares them.
 *
 * @example
 * ```ts
 * import { listedChoices } from "./listed_choice.ts";
 * const status = { in: "path", name: "status", required: true, schema: { enum: ["open", "done"] } };
 * const doc = { paths: { "/tasks/{status}": { patch: { parameters: [status] } }, "/tasks/{id}": {} } };
 * if ([...listedChoices(doc, "/tasks/{status}")].join() !== "status") throw new Error();
 * if (listedChoices(doc, "/tasks/{id}").size !== 0) throw new Error();
 * ```
 */
export function listedChoices(doc: unknown, template: string): ReadonlySet<string> {
  const paths = isNode(doc) && isNode(doc.paths) ? doc.paths : {};
  const item = paths[template];
  if (!isNode(item)) return new Set();
  const declared = [item, ...OPENAPI_METHODS.map((m) => item[m])].flatMap((n) =>
    isNode(n) && Array.isArray(n.parameters) ? n.parameters : []
  );
  const out = new Set<string>();
  for (const p of declared) {
    const param = deref(doc as Node, p);
    if (isNode(param) && isChoice(doc, param)) out.add(String(param.name));
  }
  return out;
}
