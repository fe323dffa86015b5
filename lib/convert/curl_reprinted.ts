/**
 * A program that prints the JSON it reads as the same value: `| jq`,
 * `| jq .`, `| json_pp`, `| python3 -m json.tool` (or `-mjson.tool`). Docs pipe curl into one
 * to show the answer indented (a metrics server's events page:
 * `curl -s "…/events/get_data?tags=deploy" | json_pp` and the events under
 * it). What the page prints is then curl's answer, laid out anew: a value it
 * hands out and a later command sends is the answer's, as when nothing is
 * piped. A program that picks from the answer (`jq -r .token`, `jq -s`,
 * `grep`) prints something else, and stays no answer of curl's.
 *
 * @module
 */

/** jq's options that change only the layout, never which value is printed. */
const JQ_LAYOUT = new Set([
  "--tab",
  "--raw-output",
  "--compact-output",
  "--sort-keys",
  "--color-output",
  "--monochrome-output",
  "--ascii-output",
  "--exit-status",
]);

/** jq's words, after its name: layout options, an `--indent N`, and at most the filter `.`. */
function jqReprints(words: readonly string[]): boolean {
  let filter = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === "--indent" && /^\d$/.test(words[i + 1] ?? "")) i++;
    else if (JQ_LAYOUT.has(w) || /^-[rcSCMae]+$/.test(w)) continue;
    else if (w === "." && !filter) filter = true;
    else return false;
  }
  return true;
}

/**
 * Whether a command reading curl's output prints the same JSON value again
 * (indented, sorted or coloured), so what the docs print under the pipeline
 * is curl's answer.
 *
 * @example
 * ```ts
 * import { reprintsJson } from "./curl_reprinted.ts";
 * if (!reprintsJson(["json_pp"]) || !reprintsJson(["jq", "-S", "."])) throw new Error();
 * if (!reprintsJson(["python3", "-m", "json.tool", "--sort-keys"])) throw new Error();
 * if (!reprintsJson(["python", "-mjson.tool"]) || reprintsJson(["python", "-mjson"])) throw new Error();
 * if (reprintsJson(["jq", "-r", ".token"]) || reprintsJson(["jq", "-s", "."])) throw new Error();
 * if (reprintsJson(["grep", "id"])) throw new Error();
 * ```
 */
export function reprintsJson(words: readonly string[]): boolean {
  const [name, ...rest] = words;
  const program = (name ?? "").split("/").at(-1)!;
  if (program === "jq") return jqReprints(rest);
  if (program === "json_pp") return rest.every((w) => w.startsWith("-"));
  if (/^python[23]?(\.\d+)?$/.test(program)) {
    // Python reads `-mjson.tool` as `-m json.tool`, the module joined to its option.
    const args = /^-m./.test(rest[0] ?? "") ? ["-m", rest[0].slice(2), ...rest.slice(1)] : rest;
    return args[0] === "-m" && args[1] === "json.tool" &&
      args.slice(2).every((w, i, all) =>
        w === "--sort-keys" || w === "--indent" || w === "--tab" || w === "--no-ensure-ascii" ||
        (/^\d$/.test(w) && all[i - 1] === "--indent")
      );
  }
  return false;
}
