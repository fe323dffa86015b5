/**
 * Placeholders an earlier pasted answer fills. A monitoring server's API
 * page creates a config stage, prints its answer (`{"results": [{"package":
 * "example-cmdb", "stage": "7e78…"}]}`) and says the stage's name is needed
 * for later requests; pages then write `…/stages/example-cmdb/<stage>`,
 * `:stage` or `$STAGE`. Each was a variable the user had to set, which no one
 * knows before the create runs (a fresh instance makes its own). The
 * evidence is the answer: a placeholder or `$VARIABLE` whose words are the
 * words of exactly one member of the nearest earlier pasted answer that has
 * such a member (`<stage>` and `"stage"`, `$SESSION_ID` and `"session_id"`,
 * `:orderId` and `"order_id"`) is read from that command's answer at the
 * member's path, so it is a capture of its step (curl_outputs.ts). A name
 * another rule already reads, or no answer holds, is left as it is.
 *
 * @module
 */
import type { CurlRecord } from "./curl_request.ts";
import type { EnvNames, ShellCommand } from "./curl_shell.ts";
import type { HarRecord } from "./har_model.ts";
import { readInto } from "./curl_outputs.ts";

/** Where an answer holds a scalar, and the words of its member's name. */
interface Member {
  path: (string | number)[];
  words: string;
}

/** A name's words, lower case, joined by `_`: `orderId`, `order-id`, `ORDER_ID` → `order_id`. */
const wordsOf = (name: string) =>
  name.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean).join("_").toLowerCase();

/** The members of a pasted answer that hold a string or a number (a list's first item only). */
function members(json: unknown, path: (string | number)[] = [], depth = 0): Member[] {
  if (depth > 5 || !json || typeof json !== "object") return [];
  if (Array.isArray(json)) return members(json[0], [...path, 0], depth + 1);
  return Object.entries(json).flatMap(([key, value]) =>
    typeof value === "string" || typeof value === "number"
      ? [{ path: [...path, key], words: wordsOf(key) }]
      : members(value, [...path, key], depth + 1)
  );
}

/** The variables (their names) a record sends outside its origin: path, query, headers, body. */
function sentNames(env: EnvNames, r: HarRecord): string[] {
  const text = [
    r.url.pathname,
    r.url.search,
    ...(r.headers ?? []).map((h) => h.value),
    r.bodyText ?? "",
  ].join("\n");
  return [...text.matchAll(/zqzenv(\d+)zqz/g)].map((m) => env[Number(m[1])]);
}

/**
 * Reads each placeholder that an earlier pasted answer names (see the
 * module) from that answer, in the order of the commands. `read` holds the
 * names other rules already read.
 *
 * @example
 * ```ts
 * import { answeredPlaceholders } from "./curl_answered.ts";
 * const command = { words: ["curl"], line: 1, column: 1, notes: [] };
 * const record = (url: string, json?: unknown) => ({ record: { url: new URL(url), headers: [], hasJson: !!json, json } });
 * const built = [
 *   { command, records: [record("http://a.test/stages", { results: [{ stage: "7e78" }] })] },
 *   { command: { ...command, line: 2 }, records: [record("http://a.test/stages/zqzenv0zqz")] },
 * ];
 * // deno-lint-ignore no-explicit-any
 * if (answeredPlaceholders(["STAGE"], built as any, new Set()).join() !== "STAGE") throw new Error();
 * ```
 */
export function answeredPlaceholders(
  env: EnvNames,
  built: readonly { command: ShellCommand; records: CurlRecord[] }[],
  read: Set<string>,
): string[] {
  const answered: { command: ShellCommand; members: Member[] }[] = [];
  const found: string[] = [];
  for (const { command, records } of built) {
    for (const { record } of records) {
      for (const name of sentNames(env, record)) {
        if (read.has(name)) continue;
        const words = wordsOf(name);
        // The nearest earlier answer with a member of that name; two such members say nothing.
        const from = answered.findLast((a) => a.members.some((m) => m.words === words));
        const matching = from?.members.filter((m) => m.words === words) ?? [];
        if (!from || matching.length !== 1) continue;
        read.add(name);
        readInto(from.command, name, matching[0].path);
        found.push(name);
      }
    }
    const answer = records.at(-1)?.record;
    if (answer?.hasJson) answered.push({ command, members: members(answer.json) });
  }
  return found;
}
