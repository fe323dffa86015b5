/**
 * A request body's secret that the server checks and no answer produces is
 * asked of the user as an environment variable, never sent as the
 * document's example. A NestJS auth API's `POST /auth/register-admin`
 * requires `adminSecret` ("Admin registration secret key", example
 * `super-secret-admin-key`, the server's default secret): the flow wrote
 * the example, a credential, in a file users share, and on any instance
 * whose operator changed it the step could only fail.
 *
 * The evidence is the property's own schema: `format: password` or
 * `writeOnly: true` (a value the server takes and never shows back), or,
 * as a tie-breaker for a schema saying neither, a description naming a
 * secret (secret, password, passphrase, credential, private or API key)
 * in the words that say what the property is, before what it is for ("A
 * reset token used to … change the password" names a token).
 * A description that spells the value out ("Always equal to "password"")
 * names a constant, and an example of words ("a string value") stands for
 * any text. And where the value flows: only the document's own
 * example (of the property, or of the whole body) the body would send; a
 * value the run makes (`${vars.password}`), one an answer produced, or a
 * sample made from the type is not the user's to give; never a choice
 * among listed values (`enum`).
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { envName } from "../names.ts";
import { type YMap, ymap, type YNode } from "../yaml_out.ts";
import type { AuthSchemes } from "./auth.ts";
import type { BodyFill } from "./body_fill.ts";
import { deref } from "./examples.ts";
import { bodySchema } from "./own_names.ts";
import { properties } from "./schema_properties.ts";
import { jsonBodyMedia } from "./json_body.ts";

/** Words a description names a secret with (a tie-breaker: see the module). */
const SAYS_SECRET =
  /\b(?:secret|password|passphrase|passcode|private key|api[ -]?key|access key)\b/i;

/**
 * Why a body property's schema calls it a secret the user gives, or undefined (see the module).
 *
 * @example
 * ```ts
 * import { secretEvidence } from "./body_secrets.ts";
 * if (secretEvidence({}, { format: "password" }) !== "format: password") throw new Error();
 * if (secretEvidence({}, { description: "The secret key", example: "k-1" }) === undefined) throw new Error();
 * if (secretEvidence({}, { description: "Always equal to password", example: "password" })) throw new Error();
 * if (secretEvidence({}, { description: "The API key's name", example: "a name" })) throw new Error();
 * if (secretEvidence({}, { description: "A reset token used to change the password", example: "t" })) throw new Error();
 * ```
 */
export function secretEvidence(doc: unknown, schema: unknown): string | undefined {
  const p = deref(doc, schema);
  if (!isNode(p) || Array.isArray(p.enum) || (p.type !== undefined && p.type !== "string")) {
    return undefined;
  }
  if (p.format === "password") return "format: password";
  if (p.writeOnly === true) return "writeOnly";
  const text = typeof p.description === "string" ? p.description : "";
  const said = SAYS_SECRET.exec(whatItIs(text));
  // A value the description spells out ("Always equal to \"password\"") is a constant.
  const spelt = [p.example, p.default].some((v) => typeof v === "string" && text.includes(v));
  // Words for an example ("a string value") stand for any text, not a credential.
  const prose = typeof p.example === "string" && /\s/.test(p.example.trim());
  if (prose) return undefined;
  return said && !spelt ? `described as a ${said[0].toLowerCase()}` : undefined;
}

/**
 * The part of a description that says what the property is, before what it is for or where it
 * goes: "A reset token used to … change the password" is a token, not a password (Unleash's).
 */
function whatItIs(description: string): string {
  return description.split(/\b(?:used|that|which|to|for|when|if|so|from|of)\b|[.,;:(]/i)[0];
}

/** The values the document itself writes for body property `name`: its example, default, examples. */
function written(doc: unknown, media: unknown, name: string, p: unknown): Set<unknown> {
  const s = deref(doc, p);
  const out = new Set<unknown>();
  if (isNode(s)) {
    out.add(s.example).add(s.default);
    if (Array.isArray(s.examples)) s.examples.forEach((v) => out.add(v));
  }
  if (isNode(media)) {
    const whole = [
      media.example,
      ...Object.values(isNode(media.examples) ? media.examples : {})
        .map((e) =>
          isNode(deref(doc, e)) ? (deref(doc, e) as Record<string, unknown>).value : undefined
        ),
    ];
    for (const e of whole) if (isNode(e)) out.add(e[name]);
  }
  out.delete(undefined);
  return out;
}

/**
 * Sets each required top-level body property holding a literal the schema
 * calls a secret (see the module) to a variable the user gives
 * (`${ENV.ADMIN_SECRET:-}`), the step running only when it is set; an optional
 * one is left out of the body.
 *
 * @example
 * ```ts
 * import { AuthSchemes } from "./auth.ts";
 * import { fillBodySecrets } from "./body_secrets.ts";
 * import { ymap } from "../yaml_out.ts";
 * const props = { adminSecret: { description: "Admin secret key", example: "s3cr3t" }, name: {} };
 * const node = { requestBody: { content: { "application/json": { schema: { properties: props, required: ["adminSecret"] } } } } };
 * const doc = {};
 * const body = { fields: [["body", ymap([["adminSecret", "s3cr3t"], ["name", "Jo"]])]] as [string, never][] };
 * const op = { method: "POST", template: "/admins", node } as never;
 * fillBodySecrets({ doc, auth: new AuthSchemes(doc) }, { op, body, guards: [], stepOf: new Map(), capture: () => "" });
 * const text = JSON.stringify(body.fields);
 * if (!text.includes('["adminSecret","${ENV.ADMIN_SECRET:-}"]') || !text.includes('["name","Jo"]')) throw new Error(text);
 * ```
 */
export function fillBodySecrets(shared: { doc: unknown; auth: AuthSchemes }, fill: BodyFill): void {
  const schema = bodySchema(shared.doc, fill.op);
  if (!schema) return;
  const media = jsonBodyMedia(shared.doc, fill.op.node);
  const secrets = new Map<string, [string, Set<unknown>]>();
  for (const [name, p] of properties(shared.doc, schema)) {
    const why = secretEvidence(shared.doc, p);
    if (why !== undefined) secrets.set(name, [why, written(shared.doc, media, name, p)]);
  }
  if (secrets.size === 0) return;
  const where = `${fill.op.method} ${fill.op.template}`;
  const required = requiredOf(shared.doc, schema);
  fill.body.fields = fill.body.fields.map(([field, value]): [string, YNode] => {
    if (field !== "body" || !isMap(value)) return [field, value];
    const entries = value.entries.flatMap(([k, v]): [string, YNode][] => {
      const [why, examples] = secrets.get(k) ?? [];
      // Only the document's own example: a value the run makes or an answer gave is not the user's.
      if (why === undefined || typeof v !== "string" || !examples?.has(v)) return [[k, v]];
      // One the server may make itself (Svix's endpoint `secret`: generated when not sent) is left
      // out: neither the example nor a value no new user has.
      if (!required.has(k)) return [];
      const what =
        `the "${k}" ${where} sends (its schema: ${why}), a secret no answer gives; the step is skipped without it`;
      const sent = `\${ENV.${shared.auth.envVar("body", envName(k), what)}:-}`;
      // Unset, the step is skipped rather than every flow refused before anything is sent.
      fill.ifs?.push(ymap([["value", sent], ["truthy", true]]));
      return [[k, sent]];
    });
    return [field, { ...value, entries }];
  });
}

/** The properties `schema` (or a part of its `allOf`) requires. */
function requiredOf(doc: unknown, schema: unknown): Set<string> {
  const s = deref(doc, schema);
  if (!isNode(s)) return new Set();
  const own = Array.isArray(s.required) ? s.required.filter((n) => typeof n === "string") : [];
  const parts = Array.isArray(s.allOf) ? s.allOf.flatMap((p) => [...requiredOf(doc, p)]) : [];
  return new Set([...own, ...parts]);
}

function isMap(node: YNode): node is YMap {
  return node !== null && typeof node === "object" && !Array.isArray(node) && node.kind === "map";
}
