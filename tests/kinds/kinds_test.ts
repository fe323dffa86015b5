/**
 * What every step kind owes the rest of the tool, checked for each kind
 * listed in lib/kinds/mod.ts: its JSON Schema is in schema/flow.schema.json
 * (scripts/sync_kinds.ts), names exactly the keys its reader allows, says
 * what each means and refuses others; its docs page exists; a step holding
 * two kinds' keys, or a kind's key and `request`, is one positioned problem.
 */
import assert from "node:assert/strict";
import Ajv2020 from "ajv/dist/2020.js";
import { KINDS } from "../../lib/kinds/mod.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { withEngines } from "../../lib/load/engines.ts";
import { kindsDrift } from "../../scripts/sync_kinds.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("schema/flow.schema.json holds every step kind as lib/kinds/mod.ts lists them", async () => {
  assert.equal(await kindsDrift(), undefined, "run: deno run -A scripts/sync_kinds.ts");
});

/** The schema's own definition a `$ref` names (HTTP's map is `$defs.request`). */
function resolved(schema: Record<string, unknown>): Record<string, unknown> {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const file = JSON.parse(Deno.readTextFileSync(new URL("schema/flow.schema.json", ROOT)));
  return ref.replace(/^#\//, "").split("/").reduce((at, part) => at[part], file);
}

Deno.test("each kind's schema names exactly the keys its reader allows, each described", () => {
  assert.ok(KINDS.some((k) => k.key === "request"), "HTTP is a kind of the list");
  for (const kind of KINDS) {
    const schema = resolved(kind.schema) as {
      properties?: Record<string, { description?: string }>;
      additionalProperties?: boolean;
    };
    assert.equal(schema.additionalProperties, false, `${kind.key}: additionalProperties: false`);
    assert.deepEqual(Object.keys(schema.properties ?? {}).sort(), [...kind.keys].sort(), kind.key);
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      assert.ok(property.description, `${kind.key}.${key} has a description`);
    }
    assert.ok(Deno.statSync(new URL(kind.docs, ROOT)).isFile, `${kind.docs} exists`);
  }
});

Deno.test("the flow schema compiles with every kind in it, and a kind step with request is refused", () => {
  const schema = JSON.parse(Deno.readTextFileSync(new URL("schema/flow.schema.json", ROOT)));
  // deno-lint-ignore no-explicit-any
  const ajv = new (Ajv2020 as any)({ strict: false, allErrors: true });
  const validate = ajv.compile(schema);
  // HTTP's key is request itself.
  for (const kind of KINDS.filter((k) => k.key !== "request")) {
    const both = {
      name: "f",
      steps: [{ name: "s", request: { url: "http://x.test" }, [kind.key]: {} }],
    };
    assert.equal(validate(both), false, `${kind.key} with request`);
  }
});

Deno.test("a step holding a kind's key and request is one positioned problem", async () => {
  for (const kind of KINDS.filter((k) => k.key !== "request")) {
    // A kind's reader may load on demand (gRPC's parses .proto files with protobufjs).
    const { problems } = await withEngines(() =>
      loadFlow(
        `name: f\nsteps:\n  - name: s\n    request: { url: "http://x.test" }\n    ${kind.key}: {}\n`,
        "f.yaml",
      )
    );
    const unknown = problems.filter((p) => p.code === "unknown-key");
    assert.equal(unknown.length, 1, JSON.stringify(problems));
    assert.equal(unknown[0].line, 4);
  }
});
