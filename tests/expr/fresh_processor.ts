/**
 * What the tests of values made fresh at each use (`${NOW…}`, `${RANDOM…}`)
 * share for the Artillery export: a template written as the export writes
 * it, and the values its processor makes before a virtual user's flow.
 */
import { parseTemplate } from "../../lib/expr/template.ts";

/** A template as exported in flow `f`, and what one `flowrunBefore` of its processor set. */
export interface Fresh {
  /** The template's text in artillery.yml. */
  text: string;
  /** The notes the export made of it. */
  notes: unknown[];
  /** The processor's variables after `flowrunBefore`. */
  vars: Record<string, unknown>;
  /** The clock (ms) just before and just after `flowrunBefore`. */
  before: number;
  after: number;
}

/** Exports `template`, writes its processor to a temporary file, loads it in Node's way and runs `flowrunBefore` once. */
export async function exportFresh(template: string): Promise<Fresh> {
  // Loaded here, not at the top: only these tests of the file need the export's modules.
  const { newScope } = await import("../../lib/export/scope.ts");
  const { templateText } = await import("../../lib/export/template.ts");
  const { processorSource } = await import("../../lib/export/processor.ts");
  const { createRequire } = await import("node:module");
  const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>() };
  const text = templateText(parseTemplate(template), place);
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/processor.cjs`;
    await Deno.writeTextFile(file, processorSource(place.scope));
    const processor = createRequire(import.meta.url)(file);
    const context = { vars: {} as Record<string, unknown> };
    const before = Date.now();
    processor.flowrunBefore(context, {}, () => {});
    const after = Date.now();
    return { text, notes: place.scope.notes, vars: context.vars, before, after };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
