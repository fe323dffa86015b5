/**
 * Placeholders that name what an earlier command created. API reference
 * pages create an item with a POST to a collection (`…/features -d
 * '{"name": "my-feature-toggle"}'`, `…/strategies -d '{…}'`) and then open
 * it as `…/features/:featureName` or `…/strategies/:strategy-id`. The
 * placeholder's path up to it is the collection that command created in,
 * and its last word names the field that identifies the item (`name`, `id`,
 * `key`, `slug`, `uuid`, `code`): the value the create sent in that field is
 * sent as written; else the create's answer holds it there, and it is a
 * capture of that step (a fresh instance makes its own id). Unleash's pages
 * asked for a `STRATEGY_ID` nobody could know before running the create.
 * A placeholder under a collection no earlier command POSTed to stays a
 * value to set, unless an earlier pasted answer names it (curl_answered.ts).
 *
 * @module
 */
import type { CurlRecord } from "./curl_request.ts";
import type { EnvNames, ShellCommand } from "./curl_shell.ts";
import type { HarRecord } from "./har_model.ts";
import { readInto } from "./curl_outputs.ts";
import { writtenAs } from "./curl_placeholders.ts";
import { answeredPlaceholders } from "./curl_answered.ts";

/** An earlier POST to a collection: the command and its record. */
interface Create {
  command: ShellCommand;
  record: HarRecord;
}

/** The field a placeholder's last word names: `:note-id` → `id`, `:itemName` → `name`. */
function fieldOf(written: string): string | undefined {
  if (!/^[:<]/.test(written)) return undefined;
  const words = written.replace(/^[:<]|>$/g, "").split(/[_.-]+|(?<=[a-z0-9])(?=[A-Z])/);
  const last = words.at(-1)?.toLowerCase() ?? "";
  return /^(?:id|uuid|name|key|slug|code)$/.test(last) ? last : undefined;
}

/** The string or number the create's JSON body sent in `field`, if it did. */
function sentField(r: HarRecord, field: string): string | undefined {
  try {
    const body = JSON.parse(r.bodyText ?? "");
    const value = body?.[field];
    return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
  } catch {
    return undefined;
  }
}

/** Fills `record`'s placeholder segments that name what one of `creates` made. */
function fill(env: EnvNames, creates: Map<string, Create>, record: HarRecord, read: Set<string>) {
  const segments = record.url.pathname.split("/");
  for (let i = 1; i < segments.length; i++) {
    const marker = /^zqzenv(\d+)zqz$/.exec(segments[i]);
    const name = marker ? env[Number(marker[1])] : "";
    const field = marker ? fieldOf(writtenAs(env, name)) : undefined;
    const create = field && creates.get(segments.slice(0, i).join("/"));
    if (!create) continue;
    const sent = sentField(create.record, field!);
    if (sent !== undefined) segments[i] = encodeURIComponent(sent);
    else if (!read.has(name)) {
      read.add(name);
      readInto(create.command, name, [field!]);
    }
  }
  record.url.pathname = segments.join("/");
}

/**
 * Fills, in the order of the commands, each placeholder segment that names
 * an item an earlier command created (see the module).
 *
 * @example
 * ```ts
 * import { createdPlaceholders } from "./curl_created.ts";
 * import { placeholderWords } from "./curl_placeholders.ts";
 * const env: string[] = [];
 * const [a, b] = placeholderWords(["http://a.test/items", "http://a.test/items/:itemName"], env);
 * const r = (method: string, url: string, bodyText?: string) => ({ record: { method, url: new URL(url), bodyText } });
 * const later = r("GET", b);
 * const command = { words: [], line: 1, column: 1, notes: [] };
 * // deno-lint-ignore no-explicit-any
 * createdPlaceholders(env, [{ command, records: [r("POST", a, '{"name":"lamp"}')] }, { command, records: [later] }] as any);
 * if (later.record.url.pathname !== "/items/lamp") throw new Error(later.record.url.pathname);
 * ```
 */
export function createdPlaceholders(
  env: EnvNames,
  built: readonly { command: ShellCommand; records: CurlRecord[] }[],
): void {
  const creates = new Map<string, Create>();
  const read = new Set<string>();
  for (const { command, records } of built) {
    for (const { record } of records) {
      fill(env, creates, record, read);
      const path = record.url.pathname.replace(/\/$/, "");
      if (record.method === "POST" && !creates.has(path)) creates.set(path, { command, record });
    }
  }
  // `<stage>` after an answer printed `"stage": "7e78…"`: read from that answer, curl_answered.ts.
  answeredPlaceholders(env, built, read);
}
