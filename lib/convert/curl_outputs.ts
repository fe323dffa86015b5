/**
 * A token docs read from a login's answer and send later:
 * `TOKEN=$(curl -s -X POST …/login -d '…' | jq -r '.token')`, then
 * `curl -H "Authorization: Bearer $TOKEN" …`. The variable holds what that
 * answer held at `.token`, so it is a capture of the login's step
 * (`${steps.login.capture.token}`), not a value the user must find. Only
 * what the text says is taken: an assignment of the substitution alone
 * (`NAME=`, after `export`, `local`, `declare` or `readonly`) whose command
 * is a curl piped into `jq -r` (or `--raw-output`) with a plain path
 * (`.token`, `.data.session.access_token`, `.items[0].id`). Without `-r`
 * jq prints the string quoted, and without jq the variable holds the whole
 * answer: the variable stays the user's, as before.
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";
import type { CurlRecord } from "./curl_request.ts";
import type { ShellCommand } from "./curl_shell.ts";

/** The variable a substituted curl command's answer is read into, and where in the answer. */
interface Assigned {
  name: string;
  path: (string | number)[];
}

const assigned = new WeakMap<ShellCommand, Assigned[]>();

/**
 * Marks `command`'s answer as read into the variable `name` at `path`: the
 * variable is then a capture of that command's step (curl_created.ts).
 *
 * @example
 * ```ts
 * import { readInto } from "./curl_outputs.ts";
 * readInto({ words: ["curl"], line: 1, column: 1, notes: [] }, "NOTE_ID", ["id"]);
 * ```
 */
export function readInto(command: ShellCommand, name: string, path: (string | number)[]): void {
  assigned.set(command, [...assigned.get(command) ?? [], { name, path }]);
}

const ASSIGNMENT = /^([A-Za-z_]\w*)=\s*$/;
const JQ_PATH = /^\.[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\])*$/;

/**
 * Marks the curl command among `inner` (the commands of a substitution that
 * `holder` assigns) as read into the holder's variable at a jq path.
 *
 * @example
 * ```ts
 * import { noteAssignment } from "./curl_outputs.ts";
 * const curl = { words: ["curl", "http://a.test/login"], line: 1, column: 1, notes: [] };
 * const jq = { words: ["jq", "-r", ".token"], line: 1, column: 1, notes: [], pipedFrom: curl };
 * noteAssignment({ words: ["TOKEN="], line: 1, column: 1, notes: [] }, [curl, jq]);
 * ```
 */
export function noteAssignment(holder: ShellCommand, inner: ShellCommand[]): void {
  const words = /^(export|local|declare|readonly)$/.test(holder.words[0] ?? "")
    ? holder.words.slice(1)
    : holder.words;
  const name = words.length === 1 ? ASSIGNMENT.exec(words[0])?.[1] : undefined;
  const jq = inner.at(-1);
  if (!name || !jq?.pipedFrom || jq.words[0] !== "jq") return;
  const args = jq.words.slice(1);
  const raw = args.some((a) => a === "--raw-output" || /^-[a-z]*r[a-z]*$/.test(a));
  const filters = args.filter((a) => !a.startsWith("-"));
  if (!raw || filters.length !== 1 || !JQ_PATH.test(filters[0])) return;
  const path = [...filters[0].matchAll(/\.(\w+)|\[(\d+)\]/g)].map((m) =>
    m[1] !== undefined ? m[1] : Number(m[2])
  );
  readInto(jq.pipedFrom, name, path);
}

/**
 * Captures, on each step whose command's answer a variable is read from,
 * that answer's value at the jq path; the template each such variable is
 * sent as from then on, by its name.
 *
 * @example
 * ```ts
 * import { captureOutputs } from "./curl_outputs.ts";
 * import { newCorrelator } from "./correlate/mod.ts";
 * if (captureOutputs(newCorrelator("a"), []).size !== 0) throw new Error();
 * ```
 */
export function captureOutputs(
  c: Correlator,
  built: readonly { command: ShellCommand; records: CurlRecord[] }[],
): Map<string, string> {
  const captured = new Map<string, string>();
  for (const { command, records } of built) {
    const step = c.steps.find((s) => s.first === records[0]?.record);
    for (const output of step ? assigned.get(command) ?? [] : []) {
      const name = step!.captureNames.take(output.name.toLowerCase());
      step!.captures.push([name, { kind: "json", path: output.path }]);
      captured.set(output.name, c.sp.capRef(step!.name, name));
    }
  }
  return captured;
}
