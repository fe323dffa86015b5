/**
 * Writes what the operator table (lib/model/operators.ts) drives outside the code:
 * the operator properties of the flow JSON Schema's checks, and the summary
 * table in docs/assertions.md. `--check` only reports drift (tests run it).
 *
 * Run: `deno run -A scripts/sync_operators.ts [--check]`.
 *
 * @module
 */
import { OPERATOR_SPECS, OPERATORS } from "../lib/model/operators.ts";

const ROOT = new URL("../", import.meta.url);
/** The files this script writes, relative to the project root. */
export const SCHEMA_FILE = "schema/flow.schema.json";
/** The docs page holding the operator summary table. */
export const DOCS_FILE = "docs/assertions.md";
const START = "<!-- operators:start (written by scripts/sync_operators.ts) -->";
const END = "<!-- operators:end -->";

/**
 * The schema text with every check definition's (and the condition's)
 * operator properties taken from the table, in its order, after the
 * definition's own keys (`path`, `name`, `each`, `value`).
 *
 * @example
 * ```ts
 * import { syncSchema } from "./sync_operators.ts";
 * const text = syncSchema(JSON.stringify({ $defs: { check_x: { properties: { path: {}, name: {}, equals: { old: 1 } } } } }));
 * const props = JSON.parse(text).$defs.check_x.properties;
 * if (Object.keys(props).slice(0, 3).join() !== "path,name,exists") throw new Error(Object.keys(props).join());
 * if (props.equals.old !== undefined) throw new Error("operators come from the table");
 * ```
 */
export function syncSchema(text: string): string {
  const schema = JSON.parse(text);
  const defs = (schema.$defs ?? {}) as Record<string, { properties?: Record<string, unknown> }>;
  for (const [name, def] of Object.entries(defs)) {
    if (!(name.startsWith("check_") || name === "condition") || !def.properties) continue;
    // The check's own keys (path, name, each) stay first, as written; the operators follow.
    const properties: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(def.properties)) {
      if (!(OPERATORS as readonly string[]).includes(key)) properties[key] = value;
    }
    for (const op of OPERATORS) {
      const spec = OPERATOR_SPECS[op];
      properties[op] = {
        description: spec.description,
        ...("schemaDef" in spec ? { $ref: `#/$defs/${spec.schemaDef}` } : {}),
      };
    }
    def.properties = properties;
  }
  return JSON.stringify(schema, null, 2) + "\n";
}

/**
 * The docs text with the summary table between its markers rewritten.
 *
 * @example
 * ```ts
 * import { syncDocs } from "./sync_operators.ts";
 * const text = syncDocs("# A\n<!-- operators:start (written by scripts/sync_operators.ts) -->\nold\n<!-- operators:end -->\n");
 * if (!text.includes("| `containsAll` |")) throw new Error(text);
 * ```
 */
export function syncDocs(text: string): string {
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from === -1 || to < from) throw new Error(`${DOCS_FILE} has no ${START} … ${END} markers`);
  const rows = OPERATORS.map((op) => {
    const spec = OPERATOR_SPECS[op];
    const expects = "expects" in spec ? spec.expects : "any value";
    return `| \`${op}\` | ${expects} | ${spec.description.replaceAll("|", "\\|")} |`;
  });
  const table = [
    "| operator | expected value | holds when |",
    "| --- | --- | --- |",
    ...rows,
  ].join("\n");
  return `${text.slice(0, from + START.length)}\n\n${table}\n\n${text.slice(to)}`;
}

/** Text as `deno fmt` writes it, so drift is about content, not layout. */
export async function formatted(text: string, ext: "md" | "json"): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", `--ext=${ext}`, "-"],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const { stdout, success } = await child.output();
  if (!success) throw new Error(`deno fmt --ext=${ext} failed`);
  return new TextDecoder().decode(stdout);
}

/** The files whose text differs from what the table gives, with that text. */
export async function drift(): Promise<{ file: string; text: string }[]> {
  const out: { file: string; text: string }[] = [];
  const files = [[SCHEMA_FILE, syncSchema, "json"], [DOCS_FILE, syncDocs, "md"]] as const;
  for (const [file, sync, ext] of files) {
    const before = Deno.readTextFileSync(new URL(file, ROOT));
    const after = await formatted(sync(before), ext);
    if (before !== after) out.push({ file, text: after });
  }
  return out;
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  const changed = await drift();
  for (const { file, text } of changed) {
    if (check) console.error(`${file} differs from the operator table in lib/model/operators.ts.`);
    else Deno.writeTextFileSync(new URL(file, ROOT), text);
  }
  if (check && changed.length > 0) {
    console.error("Run: deno run -A scripts/sync_operators.ts");
    Deno.exit(1);
  }
}
