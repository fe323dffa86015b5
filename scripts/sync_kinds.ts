/**
 * Writes what the step kinds (lib/kinds/mod.ts) drive in the flow JSON
 * Schema: each kind's map as `$defs.kind_<key>`, its key among a step's
 * properties, and its branch of the step's `oneOf` (a step holds one of
 * `request`, `include` or a kind's key). `--check` only reports drift
 * (tests/kinds/schema_test.ts runs it).
 *
 * Run: `deno run -A scripts/sync_kinds.ts [--check]`.
 *
 * @module
 */
import { KINDS } from "../lib/kinds/mod.ts";
import type { StepKind } from "../lib/kinds/kind.ts";
import { formatted, SCHEMA_FILE } from "./sync_operators.ts";

const ROOT = new URL("../", import.meta.url);
const PREFIX = "kind_";

type Branch = {
  description?: string;
  required?: string[];
  not?: { anyOf: { required: string[] }[] };
};

/**
 * The schema text with the step kinds of `kinds` in it, and no other kind.
 *
 * @example
 * ```ts
 * import { syncKinds } from "./sync_kinds.ts";
 * const step = { properties: { name: {}, request: {} }, oneOf: [
 *   { description: "request", required: ["request"], not: { anyOf: [{ required: ["include"] }] } },
 *   { description: "include", required: ["include"], not: { anyOf: [{ required: ["request"] }] } },
 * ] };
 * const kind = { key: "echo", what: "an echo", keys: [], read: () => ({}), attempt: () => Promise.resolve({ request: { method: "E", url: "e:", headers: [] } }), schema: { type: "object" }, docs: "docs/echo.md" };
 * const out = JSON.parse(syncKinds(JSON.stringify({ $defs: { step } }), [kind]));
 * if (out.$defs.kind_echo.type !== "object" || out.$defs.step.oneOf.length !== 3) throw new Error();
 * if (!JSON.stringify(out.$defs.step.oneOf[0].not).includes("echo")) throw new Error("a request step holds no kind key");
 * const none = JSON.parse(syncKinds(JSON.stringify(out), []));
 * if (none.$defs.kind_echo || none.$defs.step.properties.echo || none.$defs.step.oneOf.length !== 2) throw new Error();
 * ```
 */
export function syncKinds(text: string, all: readonly StepKind[] = KINDS): string {
  const schema = JSON.parse(text);
  // A kind whose map the schema defines itself (HTTP's `$defs.request`) is written by hand there.
  const kinds = all.filter((k) => !("$ref" in k.schema));
  const defs = schema.$defs as Record<string, unknown> & {
    step: { properties: Record<string, unknown>; oneOf: Branch[] };
  };
  const step = defs.step;
  const stale = Object.keys(defs).filter((d) => d.startsWith(PREFIX)).map((d) =>
    d.slice(PREFIX.length)
  );
  for (const key of stale) {
    delete defs[`${PREFIX}${key}`];
    delete step.properties[key];
  }
  const keys = kinds.map((k) => k.key);
  const others = (own: string) => ["request", "include", ...keys].filter((k) => k !== own);
  const branches = step.oneOf.filter((b) =>
    b.required?.[0] === "request" || b.required?.[0] === "include"
  );
  for (const branch of branches) {
    branch.not = {
      anyOf: [
        ...branch.not?.anyOf.filter((a) =>
          !stale.includes(a.required[0]) && !keys.includes(a.required[0])
        ) ?? [],
        ...keys.map((k) => ({ required: [k] })),
      ],
    };
  }
  for (const kind of kinds) {
    defs[`${PREFIX}${kind.key}`] = kind.schema;
    step.properties[kind.key] = {
      description: `Instead of \`request\`: ${kind.what} (see ${kind.docs}).`,
      $ref: `#/$defs/${PREFIX}${kind.key}`,
    };
    branches.push({
      description: `A step that makes ${kind.what}.`,
      required: [kind.key],
      not: { anyOf: others(kind.key).map((k) => ({ required: [k] })) },
    });
  }
  step.oneOf = branches;
  return JSON.stringify(schema, null, 2) + "\n";
}

/** The schema's text as the kinds give it, when it differs from the file's. */
export async function kindsDrift(): Promise<string | undefined> {
  const before = Deno.readTextFileSync(new URL(SCHEMA_FILE, ROOT));
  const after = await formatted(syncKinds(before), "json");
  return before === after ? undefined : after;
}

if (import.meta.main) {
  const changed = await kindsDrift();
  if (changed !== undefined && Deno.args.includes("--check")) {
    console.error(`${SCHEMA_FILE} differs from the step kinds in lib/kinds/mod.ts.`);
    console.error("Run: deno run -A scripts/sync_kinds.ts");
    Deno.exit(1);
  }
  if (changed !== undefined) Deno.writeTextFileSync(new URL(SCHEMA_FILE, ROOT), changed);
}
