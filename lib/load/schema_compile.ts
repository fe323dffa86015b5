/**
 * Schemas compiled at load time: every `schema` and `openapi` check of the
 * flows is compiled (an OpenAPI document: added) on the helper thread of
 * lib/_util/time_guard.ts, under a time limit, before anything is sent; a schema
 * that cannot be used is a problem of the flow set. The validator (ajv) is
 * imported only when a flow has such a check, so other runs start as fast
 * as before. Validating a response against a compiled schema is the check
 * stage's (`lib/check/schema.ts`), through {@linkcode guardedValidator}.
 *
 * @module
 */
import { everyStep, type Flow, type SchemaCheck, type Validate } from "../model/flow.ts";
import { functionSource } from "../_util/function_source.ts";
import { ecmaPattern } from "../_util/regex_dialect.ts";
import { type GuardedTask, GuardError, prepareGuard, runGuarded } from "../_util/time_guard.ts";
import { schemaProblem } from "./schema_problem.ts";
import { schemaTypeOf, typeNamed } from "../_util/type_names.ts";
import { exampledType } from "../_util/exampled_type.ts";
import { admitNull, optionalNull, saysNull } from "../_util/optional_null.ts";

const AJV_OPTIONS = { allErrors: true, strict: false, validateFormats: false };

/**
 * How long compiling one schema (or an OpenAPI document's response schema)
 * may take, on the helper thread: 2 s. The validator's compile time grows
 * with the schema (14 s for one of 100,000 subschemas), and on the calling
 * thread it ignored SIGINT for as long.
 *
 * @example
 * ```ts
 * import { SCHEMA_COMPILE_LIMIT_MS } from "./schema_compile.ts";
 * if (SCHEMA_COMPILE_LIMIT_MS !== 2000) throw new Error();
 * ```
 */
export const SCHEMA_COMPILE_LIMIT_MS = 2000;

let task: GuardedTask | undefined;

/**
 * Compiles every schema check of the flows (importing the validator only
 * when there is one); returns the problem of each schema that cannot be
 * compiled, nests too deeply, or refers to itself without descending into
 * the value, with its position. Compiling runs on the helper thread, at
 * most {@linkcode SCHEMA_COMPILE_LIMIT_MS} per schema, and stops once
 * `signal` is aborted. The checks then validate on the helper
 * thread of lib/_util/time_guard.ts, under its time limit: a `pattern` (or
 * `patternProperties`, `propertyNames`) that backtracks, or any other costly
 * work a body can cause, is stopped there.
 *
 * @example
 * ```ts
 * import { prepareSchemas } from "./schema_compile.ts";
 * if ((await prepareSchemas([])).length !== 0) throw new Error();
 * ```
 */
export async function prepareSchemas(
  flows: readonly Flow[],
  signal?: AbortSignal,
): Promise<{ check: SchemaCheck; message: string }[]> {
  const checks = [...everyStep(flows)]
    .flatMap(({ checks }) => checks.flatMap((c) => c.schemas ?? []))
    .filter((c) => c.kind === "schema" ? !c.validate : !c.ajv);
  if (checks.length === 0) return [];
  // Imported here too, so the module is at hand (and in a compiled binary) for the helper thread.
  await Promise.all([import("ajv/dist/2020.js"), prepareGuard()]);
  task ??= {
    name: "schema",
    source: SCHEMA_SOURCE,
    imports: { ajv: import.meta.resolve("ajv/dist/2020.js") },
  };
  const problems: { check: SchemaCheck; message: string }[] = [];
  let waitMs = 0;
  for (const check of checks) {
    // A signal is seen between two compiles (each blocks this thread up to its limit), and
    // ends the loading: the run it interrupts sends nothing. After a long compile the wait is
    // 50 ms, not 0: the runtime read a signal that came during it too late for a 0 or 5 ms timer
    // in a third of runs (tests/red_team_b_test.ts), and the next compile added its 2 s.
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    if (signal?.aborted) break;
    const started = performance.now();
    const message = prepareOne(check);
    waitMs = performance.now() - started > 100 ? 50 : 0;
    if (message !== undefined) problems.push({ check, message });
  }
  return problems;
}

/**
 * What preparing each OpenAPI document gave (its problem, or null for none):
 * a suite whose steps name one document (`convert openapi` writes one
 * check per step) checks and sends it to the helper thread once, not once
 * per step (296 steps of a 1.7 MB document took 13 s to load).
 */
const preparedDocuments = new WeakMap<object, string | null>();

/** Compiles one check on the helper thread and sets its validator; why it cannot be used. */
function prepareOne(check: SchemaCheck): string | undefined {
  const shared = check.kind === "openapi" && typeof check.document === "object" &&
      check.document !== null
    ? check.document
    : undefined;
  const known = shared && preparedDocuments.get(shared);
  if (known !== undefined) {
    if (known === null && check.kind === "openapi") check.ajv = { prepared: true };
    return known ?? undefined;
  }
  const problem = prepareNew(check);
  if (shared) preparedDocuments.set(shared, problem ?? null);
  return problem;
}

function prepareNew(check: SchemaCheck): string | undefined {
  const document = check.kind === "schema" ? check.schema : check.document;
  const problem = schemaProblem(document, check.kind);
  if (problem) return problem;
  // Compiled (an OpenAPI document: added) on the helper thread for its problems, before
  // anything is sent, under the limit; the thread keeps it for the checks.
  const key = keyOf(check);
  const failed = compileGuarded(
    check.kind === "schema"
      ? { key, kind: "schema", schema: check.schema }
      : { key, kind: "openapi", document: check.document },
  );
  if (failed) return failed.message;
  if (check.kind === "schema") check.validate = guardedValidator(check, undefined);
  else check.ajv = { prepared: true };
  return undefined;
}

/**
 * The validator task, run on the helper thread: each schema (or OpenAPI
 * document) compiled once, when a check first needs it (`load`), then each
 * body validated, every violation listed. Running out of stack is a
 * result: `{overflow: true}`.
 */
const SCHEMA_SOURCE = `
const { Ajv2020 } = libs.ajv.default && libs.ajv.default.Ajv2020 ? libs.ajv.default : libs.ajv;
const documents = new Map();
const validators = new Map();
// JSON Schema's patterns are ECMA-262 regular expressions; the validator compiles them with the
// u flag, which refuses identity escapes real documents write (\\: or \\_): such a
// pattern is compiled as JavaScript without u, as a browser's validator would. A pattern in
// a server language's dialect (Django's \\Z, DRF's \\z) is read as that dialect means it first.
const regExp = (pattern, flags) => {
  const source = ecmaPattern(pattern);
  try {
    return new RegExp(source, flags);
  } catch (error) {
    if (!flags.includes("u")) throw error;
    return new RegExp(source, flags.replace("u", ""));
  }
};
const options = () => ({ ...${JSON.stringify(AJV_OPTIONS)}, code: { regExp } });
${functionSource(ecmaPattern, "ecmaPattern")}
${functionSource(typeNamed, "typeNamed")}
${functionSource(schemaTypeOf, "schemaTypeOf")}
${functionSource(namedTypes, "namedTypes")}
${functionSource(draft4, "draft4")}
${functionSource(exampledType, "exampledType")}
${functionSource(saysNull, "saysNull")}
${functionSource(admitNull, "admitNull")}
${functionSource(optionalNull, "optionalNull")}
${functionSource(openApi30, "openApi30")}
function load({ key, kind, schema, document, ref }) {
  if (kind === "schema") {
    validators.set(key, new Ajv2020(options()).compile(schema));
    return;
  }
  let ajv = documents.get(key);
  if (!ajv) {
    ajv = new Ajv2020(options());
    ajv.addSchema(openApi30(document, false, !saysNull(document)), "openapi");
    documents.set(key, ajv);
  }
  if (ref !== undefined) validators.set(key + " " + ref, ajv.compile({ $ref: ref }));
}
return (input) => {
  if (input.load) return load(input.load);
  const validate = validators.get(input.ref === undefined ? input.key : input.key + " " + input.ref);
  if (!validate) return { need: true };
  try {
    if (validate(input.value)) return [];
  } catch (error) {
    if (error instanceof RangeError) return { overflow: true };
    throw error;
  }
  return (validate.errors || []).map((e) => ({
    at: e.instancePath,
    message: e.message ?? "is invalid",
  }));
};
`;

/** Each check's number, by which the helper thread knows its compiled schema. */
const keys = new WeakMap<SchemaCheck, string>();
let nextKey = 0;

// An OpenAPI document parsed once (schema_document.ts shares it) has one key: the helper
// thread adds it once and compiles each of its response schemas once.
const documentKeys = new WeakMap<object, string>();

function keyOf(check: SchemaCheck): string {
  const document = check.kind === "openapi" ? check.document : undefined;
  if (typeof document === "object" && document !== null) {
    let key = documentKeys.get(document);
    if (key === undefined) documentKeys.set(document, key = `s${nextKey++}`);
    return key;
  }
  let key = keys.get(check);
  if (key === undefined) keys.set(check, key = `s${nextKey++}`);
  return key;
}

/**
 * A validator on the helper thread, for a check {@linkcode prepareSchemas}
 * prepared (with `ref`, an OpenAPI document's response schema, a JSON
 * pointer under `openapi#`): the schema is sent the first time the thread
 * lacks it (at start, or after a timeout restarted it), and compiled there
 * under {@linkcode SCHEMA_COMPILE_LIMIT_MS}, not the check's limit. Throws
 * `GuardError` when validating does not finish in time or fails.
 *
 * @example
 * ```ts
 * import { guardedValidator, prepareSchemas } from "./schema_compile.ts";
 * import type { Flow, SchemaCheck } from "../model/flow.ts";
 * const check: SchemaCheck = {
 *   kind: "schema", source: "inline schema", schema: { type: "integer" },
 *   file: "f.yaml", line: 1, column: 1,
 * };
 * const flow = { file: "f.yaml", name: "f", vars: [], steps: [
 *   { name: "s", assert: { paths: [], schemas: [check] } },
 * ] } as unknown as Flow;
 * if ((await prepareSchemas([flow])).length !== 0) throw new Error();
 * const validate = guardedValidator(check, undefined);
 * if (validate(7).length !== 0 || validate("7").length !== 1) throw new Error();
 * ```
 */
export function guardedValidator(check: SchemaCheck, ref: string | undefined): Validate {
  const key = keyOf(check);
  const load = check.kind === "schema"
    ? { key, kind: "schema", schema: check.schema }
    : { key, kind: "openapi", document: check.document, ref };
  // A schema that did not compile in time will not next time: later checks of it, in this
  // step or another that names the same file, fail at once.
  // (An OpenAPI document is a file; a schema may be inline, and compiled at load anyway.)
  const same = check.kind === "openapi" ? `${check.file}\n${check.source}\n${ref}` : key;
  return (value) => {
    const known = compileFailures.get(same);
    if (known) throw known;
    let got = runGuarded(task!, { key, ref, value });
    if (typeof got === "object" && got !== null && "need" in got) {
      const failed = compileGuarded(load);
      if (failed) {
        compileFailures.set(same, failed);
        throw failed;
      }
      got = runGuarded(task!, { key, ref, value });
    }
    if (typeof got === "object" && got !== null && "overflow" in got) {
      throw new GuardError(
        "check-failed",
        "the validator ran out of stack (the schema recurses too deeply for this body)",
      );
    }
    return got as ReturnType<Validate>;
  };
}

/** Schemas (by flow file, source and OpenAPI reference) that did not compile. */
const compileFailures = new Map<string, GuardError>();

/**
 * Compiles a schema on the helper thread within {@linkcode SCHEMA_COMPILE_LIMIT_MS}; what
 * went wrong, as a `check-failed` error with a sentence, or undefined.
 */
function compileGuarded(load: Record<string, unknown>): GuardError | undefined {
  try {
    runGuarded(task!, { load }, SCHEMA_COMPILE_LIMIT_MS);
    return undefined;
  } catch (error) {
    if (!(error instanceof GuardError)) throw error;
    const limit = `${SCHEMA_COMPILE_LIMIT_MS / 1000} s`;
    return new GuardError(
      "check-failed",
      error.code === "check-timeout"
        ? `the schema did not compile within ${limit} (it is too large: check a part of the ` +
          "body against the part of the schema that describes it)"
        : error.message === "it ran out of stack"
        ? "the schema did not compile: its $ref chains or nesting go too deep for the validator"
        : error.message,
    );
  }
}

/**
 * A `type` written as no JSON Schema type name read as the converter reads
 * it (`Date`, which TypeBox-based generators such as Elysia's write for a
 * JavaScript `Date`, is a string; `int` an integer; `String` a string), and
 * dropped where no entry of it has a meaning (`Uint8Array`): the validator
 * refused the whole document over one such name ("type must be JSONType or
 * JSONType[]"), failing the check of every answer that held one.
 * Self-contained: the helper thread runs it too.
 */
function namedTypes(out: Record<string, unknown>): void {
  const names = typeof out.type === "string" ? [out.type] : out.type;
  if (!Array.isArray(names) || names.some((n) => typeof n !== "string")) return;
  const types = names.map((n) => schemaTypeOf(n));
  if (types.some((t) => t === undefined)) delete out.type;
  else if (typeof out.type === "string") out.type = types[0];
  else out.type = [...new Set(types)];
}

/**
 * A schema's draft-4 forms, which 3.0 (and Swagger 2.0) write, as the
 * 2020-12 validator reads them: `exclusiveMinimum: true` beside `minimum`
 * is `exclusiveMinimum: <minimum>` (3.1 writes the bound itself; the
 * validator refused the boolean, failing every check of svix's document),
 * `false` says nothing; 2.0's `x-nullable` is `nullable`, which the 2.0
 * upgrade keeps as written; `nullable: true` beside a type is
 * `type: [T, "null"]`; and a `writeOnly` property is not `required` (the
 * document checks answers). Self-contained: the helper thread runs it too.
 */
function draft4(out: Record<string, unknown>): void {
  for (
    const [exclusive, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]]
  ) {
    if (typeof out[exclusive] !== "boolean") continue;
    if (out[exclusive] === true && typeof out[bound] === "number") {
      out[exclusive] = out[bound];
      delete out[bound];
    } else delete out[exclusive];
  }
  if (out["x-nullable"] === true && !Object.hasOwn(out, "nullable")) out.nullable = true;
  if (out.nullable === true && typeof out.type === "string") out.type = [out.type, "null"];
  // A writeOnly property's `required` takes effect on the request only (3.0), and these schemas
  // check answers: Django REST framework requires its write-only `password` in both.
  const props = out.properties;
  if (Array.isArray(out.required) && props !== null && typeof props === "object") {
    const written = (n: unknown) =>
      (props as Record<string, { writeOnly?: unknown } | undefined>)[String(n)]?.writeOnly === true;
    out.required = out.required.filter((n) => !written(n));
  }
}

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema's `type: [T, "null"]` (or,
 * without a type, `anyOf` the schema or null), so
 * one validator serves 3.0 and 3.1 documents; and without `example` and
 * `examples`, which validate nothing but which the validator would search
 * for `$id`s (an example of data holding `"$id": "…"` twice made the whole
 * document unusable), nor `id`, no keyword of OpenAPI's, which the validator
 * refuses as draft 4's schema id. Keys of maps of names (`properties`, `schemas`, …)
 * are kept whatever they are: a property may be named `example`. `silent`: the
 * document writes null nowhere (lib/_util/optional_null.ts).
 * Self-contained: the helper thread runs its source too.
 */
function openApi30(node: unknown, names = false, silent = false): unknown {
  if (Array.isArray(node)) return node.map((v) => openApi30(v, false, silent));
  if (node === null || typeof node !== "object") return node;
  const nameMaps = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "schemas",
    "paths",
    "responses",
    "content",
    "parameters",
    "requestBodies",
    "headers",
    "encoding",
  ];
  // OpenAPI names no keyword `id` (draft 4's schema id), which the validator refuses: ignored.
  const ignored = names ? [] : ["example", "examples", "id"];
  // Values, not schemas: an `enum` or `const` object holding `type: "Point"` is data as written.
  const values = names ? [] : ["enum", "const", "default"];
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (ignored.includes(k)) continue;
    out[k] = values.includes(k) ? v : openApi30(v, !names && nameMaps.includes(k), silent);
  }
  if (!names) {
    namedTypes(out);
    draft4(out);
    exampledType(node as Record<string, unknown>, out);
    optionalNull(out, silent);
  }
  // Beside allOf or $ref without a type (Box writes it so), 3.0.2's nullable still admits null;
  // the validator refuses the keyword there, so it becomes the anyOf it means.
  if (!names && Object.hasOwn(out, "nullable") && !Object.hasOwn(out, "type")) {
    const { nullable, ...rest } = out;
    return nullable === true ? { anyOf: [rest, { type: "null" }] } : rest;
  }
  return out;
}
