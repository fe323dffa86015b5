/**
 * The names of the variables a collection reads (`{{x}}` in a request, a
 * script's `pm.environment.get("x")`) and its scripts set, read from the text
 * as a first look: the converter's flows are built knowing them.
 *
 * @module
 */
import type { PmCollection } from "./model.ts";

/** A `{{name}}` in request text. */
const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;
/** A script reading a variable: `pm.environment.get("x")`, `postman.getGlobalVariable('x')`, `replaceIn("{{x}}")`. */
const GETTER =
  /\b(?:get|getEnvironmentVariable|getGlobalVariable|has|replaceIn)\s*\(\s*(["'`])(.*?)\1/g;

/**
 * The variables any request or script of the collection reads.
 *
 * @example
 * ```ts
 * import { namesRead } from "./names_used.ts";
 * const r = { name: "a", folders: [], method: "GET", url: "{{base}}/x", headers: [], scripts: [{ listen: "test" as const, source: 'pm.environment.get("id")', owner: "a" }] };
 * const read = namesRead({ name: "c", version: "2.1", variables: [], units: [{ requests: [r] }], depth: 0 });
 * if (!read.has("base") || !read.has("id")) throw new Error();
 * ```
 */
export function namesRead(c: PmCollection): Set<string> {
  const read = new Set<string>();
  const text = (t: string | undefined) => {
    for (const m of (t ?? "").matchAll(PLACEHOLDER)) read.add(m[1]);
  };
  for (const unit of c.units) {
    for (const r of unit.requests) {
      text(r.url);
      for (const h of r.headers) text(`${h.key} ${h.value}`);
      const b = r.body;
      text(b?.raw);
      text(b?.file);
      text(b?.graphql?.query);
      text(b?.graphql?.variables);
      for (const p of b?.pairs ?? []) text(`${p.key} ${p.value} ${p.src ?? ""}`);
      for (const v of Object.values(r.auth?.settings ?? {})) text(v);
      for (const s of r.scripts) {
        for (const m of s.source.matchAll(GETTER)) {
          read.add(m[2]);
          text(m[2]);
        }
      }
    }
  }
  return read;
}

/** A script setting a variable: `pm.environment.set("x", …)`, `postman.setGlobalVariable('x', …)`. */
const SETTER = /\b(?:set|setEnvironmentVariable|setGlobalVariable)\s*\(\s*(["'`])([^"'`]*?)\1\s*,/g;

/**
 * The variables any script of the collection sets.
 *
 * @example
 * ```ts
 * import { namesSet } from "./names_used.ts";
 * const r = { name: "a", folders: [], method: "GET", url: "/x", headers: [], scripts: [{ listen: "test" as const, source: 'pm.environment.set("id", 1)', owner: "a" }] };
 * if (!namesSet({ name: "c", version: "2.1", variables: [], units: [{ requests: [r] }], depth: 0 }).has("id")) throw new Error();
 * ```
 */
export function namesSet(c: PmCollection): Set<string> {
  const set = new Set<string>();
  for (const unit of c.units) {
    for (const r of unit.requests) {
      for (const s of r.scripts) for (const m of s.source.matchAll(SETTER)) set.add(m[2]);
    }
  }
  return set;
}
