/**
 * A create sends the optional names its schema lists. A document written by
 * hand (swagger-jsdoc comments above Express routes) says what a member is,
 * seldom whether the code needs it: an API's sign-up `POST /users` listed
 * `firstName` and `lastName` beside its required `email` and `password`,
 * its table holds both `NOT NULL`, and the two required members alone were
 * refused (400 "null value in column first_name"): no account, no login,
 * every flow skipped. A name (a key ending in `name` or `title`) is what a
 * form asks its user for, free text a server takes where it is optional;
 * the generator's text gets a random suffix per run (`run_values.ts`), so a
 * server keeping it UNIQUE takes a second run too. Only the item's own name
 * (`name`, `title`, `firstName`, `displayName`, `userName` of `POST /users`):
 * a name of something else (`roleName`, `bucketName`, `serviceName`) names
 * one that must exist, and `hostname` an address; those are left out as
 * before, and so is a name the schema constrains in ways free text may
 * break (a `format`, `enum`, `const` or `pattern`), marks read-only or
 * deprecated, or makes a password or a relation, and one the server fills
 * (a `default`, a description saying it defaults: `server_defaults.ts`). Only top-level members and
 * those of objects the body already holds are read. A create's body that
 * came out empty is filled first (`empty_create.ts`); an update is left
 * alone (it changes one member: `one_change.ts`); a form's names are the
 * sign-up's alone (`body.ts`: a form POST is as often a search).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref, type ExampleMaker } from "./examples.ts";
import { plainNoun } from "./collection_nouns.ts";
import { isPasswordField } from "./password_field.ts";
import { isRelation } from "./relation_member.ts";
import { serverDefaults } from "./server_defaults.ts";

/** A key that names its object: `name`, `firstName`, `last_name`, `title`, `displayName`. */
const NAME_KEY = /(?:name|title)$/i;

/**
 * What a name's key says before `name` or `title` when the name is the item's own: nothing, or a
 * part of a person's or thing's name (`firstName`, `displayName`, `jobTitle`, `codename`). Any
 * other word names something else (`bucketName`, `serviceName`, `roleName`: one that must exist;
 * `hostname`, `username`: an address, an account), which is left out.
 */
const OWN_PART =
  /^(?:|first|last|middle|given|family|sur|full|display|nick|short|long|legal|preferred|code|job)$/;

/** Deepest body level read (a sign-up nests its account once or twice). */
const MAX_DEPTH = 3;

/** Whether optional member `name` (schema `p`) is a free-text name of the item (see the module). */
function freeName(doc: unknown, name: string, p: unknown, own: string): boolean {
  if (!NAME_KEY.test(name) || !isNode(p) || isPasswordField(name, p) || isRelation(doc, p)) {
    return false;
  }
  const types = Array.isArray(p.type) ? p.type.filter((t) => t !== "null") : [p.type];
  if (types.length !== 1 || types[0] !== "string") return false;
  if (p.readOnly === true || p.deprecated === true) return false;
  // The server's to fill: its default, or its description says so (server_defaults.ts).
  if (p.default !== undefined || serverDefaults(doc, p)) return false;
  if (["format", "enum", "const", "pattern"].some((k) => p[k] !== undefined)) return false;
  const stem = name.replace(NAME_KEY, "").toLowerCase().replace(/[_-]/g, "");
  return OWN_PART.test(stem) || (stem !== "" && plainNoun(stem) === own);
}

/**
 * `value`, the generated JSON body of a create on `template` (schema
 * `schema`), with each optional free-text name its objects list added at
 * the generator's value (see the module).
 *
 * @example
 * ```ts
 * import { withOptionalNames } from "./named_optional.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const doc = { paths: { "/users": {} } };
 * const schema = { type: "object", required: ["email"], properties: {
 *   email: { type: "string" }, firstName: { type: "string" }, roleName: { type: "string" },
 *   bio: { type: "string" }, code: { type: "string", pattern: "^[A-Z]+$" } } };
 * const got = withOptionalNames(doc, new ExampleMaker(doc), "/users", schema, { email: "e" });
 * if (JSON.stringify(got) !== '{"email":"e","firstName":"string"}') throw new Error(JSON.stringify(got));
 * ```
 */
export function withOptionalNames(
  doc: unknown,
  maker: ExampleMaker,
  template: string,
  schema: unknown,
  value: unknown,
): unknown {
  // The created item's own noun names the item itself (`userName` of `POST /users`).
  const last = template.split("/").filter((s) => s !== "" && !s.includes("{")).at(-1);
  return added(doc, maker, schema, value, last === undefined ? "" : plainNoun(last), 0);
}

function added(
  doc: unknown,
  maker: ExampleMaker,
  schema: unknown,
  value: unknown,
  own: string,
  depth: number,
): unknown {
  const s = deref(doc, schema);
  if (!isNode(value) || !isNode(s) || !isNode(s.properties) || depth > MAX_DEPTH) return value;
  const out: Node = { ...value };
  // A required member the body lacks was left out on purpose (server_defaults.ts).
  const required: unknown[] = Array.isArray(s.required) ? s.required : [];
  for (const [name, property] of Object.entries(s.properties)) {
    const p = deref(doc, property);
    if (Object.hasOwn(out, name)) {
      out[name] = added(doc, maker, p, out[name], own, depth + 1);
    } else if (!required.includes(name) && freeName(doc, name, p, own)) {
      const made = maker.make(p);
      if (typeof made === "string") out[name] = made;
    }
  }
  return out;
}
