/**
 * schema/flow.schema.json and the loader must never disagree about structure:
 * every file of the corpus (tests/fixtures/schema/{valid,invalid}) and every
 * example flow is validated with the schema (ajv, draft 2020-12) and loaded
 * with lib/load/load_flow.ts; both accept the valid ones and both reject the invalid ones.
 * The invalid corpus holds structural mistakes only (one per file): references,
 * environment variables and path/regex/expression syntax are the loader's alone.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { parse } from "yaml";
import { FlowFiles } from "../../lib/load/expand_includes.ts";
import "../support/engines.ts";
import { OPERATORS, TYPE_NAMES } from "../../lib/model/flow.ts";
import { isConstant, parseTemplate } from "../../lib/expr/template.ts";

const ROOT = new URL("../../", import.meta.url);
const SCHEMA_PATH = new URL("schema/flow.schema.json", ROOT);
const schema = JSON.parse(Deno.readTextFileSync(SCHEMA_PATH));
const ajv = new Ajv2020({
  allErrors: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
});
const validate = ajv.compile(schema);

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** The `*.yaml` files under a directory of the repository, recursively, as relative paths. */
function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(new URL(rel + "/", ROOT))];
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    for (const e of entries) {
      const path = `${rel}/${e.name}`;
      if (e.isDirectory) walk(path);
      else if (e.isFile && /\.ya?ml$/.test(e.name)) out.push(path);
    }
  };
  walk(dir);
  return out.sort();
}

/** Loader problem codes a JSON Schema can also detect; any other code is a cross-step or syntax problem. */
const STRUCTURAL = new Set([
  "wrong-type",
  "out-of-range",
  "missing-key",
  "unknown-key",
  "bad-name",
  "bad-method",
  "bad-url",
  "bad-header",
  "bad-path",
  "conflicting-keys",
]);

interface Verdicts {
  schemaErrors: string[];
  loaderProblems: string[];
  loaderCodes: string[];
}

function judge(file: string): Verdicts {
  const text = Deno.readTextFileSync(new URL(file, ROOT));
  const data = parse(text, { merge: true });
  const schemaOk = validate(data);
  const schemaErrors = schemaOk
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
  // Through FlowFiles, as the CLI loads them, so includes are read.
  const { problems } = new FlowFiles({ checkEnv: false }).load(file, text);
  const loaderProblems = problems.map((p) => `${p.line}:${p.column} ${p.code}: ${p.message}`);
  return { schemaErrors, loaderProblems, loaderCodes: problems.map((p) => p.code) };
}

// A check file (examples/suite/checks/) is a list of checks, not a flow: the flows that use it load it.
// Nor is an --auth-file (examples/run_auth/bearer_token.yaml): one auth: block, read by the run.
const VALID = [
  ...yamlFiles("tests/fixtures/schema/valid"),
  ...yamlFiles("examples").filter((f) =>
    !f.includes("/checks/") && !f.endsWith("run_auth/bearer_token.yaml")
  ),
];
const INVALID = yamlFiles("tests/fixtures/schema/invalid");

Deno.test("the corpus is large enough", () => {
  assert(yamlFiles("tests/fixtures/schema/valid").length >= 15, "want at least 15 valid files");
  assert(INVALID.length >= 25, "want at least 25 invalid files");
});

for (const file of VALID) {
  Deno.test(`valid for schema and loader: ${file}`, () => {
    const judged = judge(file);
    const { schemaErrors } = judged;
    // examples/tls reads certificates made at test time (tls_proxy_test runs it with them).
    const loaderProblems = file.startsWith("examples/tls/")
      ? judged.loaderProblems.filter((p) => !/ file-read: .*certs\//.test(p))
      : judged.loaderProblems;
    assert(
      schemaErrors.length === 0 && loaderProblems.length === 0,
      `${file} should be valid.\n  schema: ${schemaErrors.join("; ") || "ok"}\n  loader: ${
        loaderProblems.join("; ") || "ok"
      }`,
    );
  });
}

for (const file of INVALID) {
  Deno.test(`invalid for schema and loader: ${file}`, () => {
    const { schemaErrors, loaderProblems, loaderCodes } = judge(file);
    // One structural mistake per file: the loader reports exactly one problem, of a kind
    // the schema can see (so the file is not invalid for a reason the schema cannot know).
    assert(
      loaderCodes.length !== 1 || STRUCTURAL.has(loaderCodes[0]),
      `${file}: the loader's problem is not structural: ${loaderProblems[0]}`,
    );
    assert(
      loaderCodes.length <= 1,
      `${file} should hold one mistake; the loader reports:\n  ${loaderProblems.join("\n  ")}`,
    );
    assert(
      schemaErrors.length > 0 && loaderProblems.length > 0,
      `${file} should be rejected by both.\n  schema: ${
        schemaErrors.join("; ") || "accepted"
      }\n  loader: ${loaderProblems.join("; ") || "accepted"}`,
    );
  });
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

Deno.test("every property in the schema has a description", () => {
  const missing: string[] = [];
  const walk = (node: Json, at: string) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}/${key}`;
      if (
        (key === "properties" || key === "patternProperties" || key === "$defs") &&
        value !== null && typeof value === "object" && !Array.isArray(value)
      ) {
        for (const [name, sub] of Object.entries(value)) {
          const d = sub !== null && typeof sub === "object" && !Array.isArray(sub)
            ? sub.description
            : undefined;
          if (typeof d !== "string" || d.trim() === "") missing.push(`${here}/${name}`);
        }
      }
      if (
        (key === "additionalProperties" || key === "propertyNames" || key === "items") &&
        value !== null && typeof value === "object" && !Array.isArray(value) &&
        typeof value.description !== "string"
      ) missing.push(here);
      walk(value, here);
    }
  };
  walk(schema, "#");
  assert(typeof schema.description === "string", "the schema has no description");
  assert(missing.length === 0, `no description at:\n  ${missing.join("\n  ")}`);
});

Deno.test("the schema names the loader's operators and type names", () => {
  for (const def of ["check_response", "check_body"]) {
    const keys = Object.keys(schema.$defs[def].properties);
    assert(
      JSON.stringify(keys) === JSON.stringify(["path", "name", "each", ...OPERATORS]),
      `${def} lists ${keys.join(", ")}`,
    );
  }
  const names = schema.$defs.op_type.anyOf[0].enum;
  assert(JSON.stringify(names) === JSON.stringify(TYPE_NAMES), `type names: ${names}`);
});

Deno.test("the expression pattern agrees with the template parser", () => {
  const expression = new RegExp(schema.$defs.expression.pattern, "u");
  // Every string of up to 7 characters over "$", "{", "}" and "a" that parses as a template.
  let strings = [""];
  let checked = 0;
  for (let n = 1; n <= 7; n++) {
    strings = strings.flatMap((s) => ["$", "{", "}", "a"].map((c) => s + c));
    for (const s of strings) {
      let template;
      try {
        template = parseTemplate(s);
      } catch {
        continue; // expression syntax errors are the loader's alone
      }
      checked++;
      assert(
        expression.test(s) === !isConstant(template),
        `the pattern says ${JSON.stringify(s)} ${
          expression.test(s) ? "holds" : "holds no"
        } expression`,
      );
    }
  }
  assert(checked > 1000, `only ${checked} strings checked`);
});
