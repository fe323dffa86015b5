/**
 * A cookie file the commands share: docs log in with `curl -c cookies.txt …`
 * and send the session on with `curl -b cookies.txt …` (or both on every
 * command). curl writes the cookies an answer set into the file and reads
 * them back; a flow has the run's cookie jar for that
 * (`options: {cookie_jar: true}`: the step sends the jar's cookies for its URL
 * and keeps those its answer sets). A file some command writes with `-c` and
 * some command reads with `-b` is the text's own jar, so every command that
 * names it uses the run's jar; a `-b FILE` no command writes is a file of the
 * user's, not carried (its note stays), and a `-c FILE` nothing reads stays
 * an ignored option. Order does not matter: curl reads a file not yet
 * written as empty, as the run's jar is before the first answer.
 *
 * @module
 */
import type { OutcomeCommand } from "./curl_error_line.ts";

/**
 * Gives each command that writes or reads a shared cookie file the run's jar,
 * with a note, and takes back the `-b` note and the ignored `-c` that said
 * otherwise. Returns how many commands use the jar.
 *
 * @example
 * ```ts
 * import { sharedJars } from "./curl_jar.ts";
 * const step = (o: object) =>
 *   // deno-lint-ignore no-explicit-any
 *   ({ command: { line: 1 }, records: [{ extras: { options: o, ignored: [], notes: [] } }], notes: [] }) as any;
 * const built = [step({ jarWrite: "c.txt" }), step({ jarRead: "c.txt" })];
 * if (sharedJars(built) !== 2 || !built[1].records[0].extras.options.cookieJar) throw new Error();
 * ```
 */
export function sharedJars(built: OutcomeCommand[]): number {
  const options = (b: OutcomeCommand) => b.records.map((r) => r.extras.options);
  const written = new Set(built.flatMap((b) => options(b).flatMap((o) => o.jarWrite ?? [])));
  const read = new Set(built.flatMap((b) => options(b).flatMap((o) => o.jarRead ?? [])));
  const told = new Set<string>();
  let count = 0;
  for (const b of built) {
    const reads = options(b).map((o) => o.jarRead).find((f) => f !== undefined && written.has(f));
    const writes = options(b).map((o) => o.jarWrite).find((f) => f !== undefined && read.has(f));
    if (reads === undefined && writes === undefined) continue;
    for (const r of b.records) r.extras.options.cookieJar = true;
    // The command's records share its ignored options and its notes.
    const ignored = b.records[0].extras.ignored;
    if (writes !== undefined) dropFirst(ignored, (i) => /^(?:-c \()?--cookie-jar\)?$/.test(i));
    if (reads !== undefined) {
      dropFirst(b.notes, (n) => n.startsWith(`-b "${reads}" reads cookies from a file`));
    }
    const file = (reads ?? writes)!;
    if (!told.has(file)) {
      told.add(file);
      b.notes.push(
        `"${file}" is a cookie file the commands share (-c writes it, -b reads it): each step that names it keeps and sends the run's cookies (cookie_jar), as curl's file does.`,
      );
    }
    count++;
  }
  return count;
}

/** Removes the first entry `is` matches, in place. */
function dropFirst(list: string[], is: (entry: string) => boolean): void {
  const at = list.findIndex(is);
  if (at >= 0) list.splice(at, 1);
}
