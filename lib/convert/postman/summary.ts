/**
 * The summary `flowrun convert postman` prints on stderr: the flows written,
 * translated and untranslated assertions per request, what to set before
 * running, and the command that runs the suite.
 *
 * @module
 */
import { plural } from "../../_util/plural.ts";
import type { PostmanSummary } from "./convert.ts";
import { varName } from "./vars.ts";
import type { Broken } from "./flow_state.ts";
import { sandboxLacks } from "./sandbox_lacks.ts";

/** Requests listed by name; the rest are counted. */
const MAX_LISTED = 200;
/** Requests named in one sentence (not sent, not converted); the rest are counted. */
const MAX_NAMED = 20;

/**
 * The summary's text, `dir` being the output folder as the user wrote it.
 *
 * @example
 * ```ts
 * import { formatPostmanSummary } from "./summary.ts";
 * const text = formatPostmanSummary({
 *   collection: "Shop", version: "2.1", requests: 1, flows: [{ file: "1_shop.yaml", name: "Shop", steps: 1, folders: [""] }],
 *   reports: [{ file: "1_shop.yaml", request: "Login", step: "login", translated: 2, untranslated: 1 }],
 *   env: [], unset: [], randomized: [], notSent: [], unsendable: [], oauth2Tokens: 0, placeholders: [],
 * }, "out");
 * if (!text.includes("Login: 2 translated, 1 untranslated")) throw new Error(text);
 * ```
 */
export function formatPostmanSummary(s: PostmanSummary, dir: string): string {
  if (s.flows.length === 0) {
    // Nothing to run: what was read, and why none of it can be sent.
    return [
      `Read ${
        plural(s.requests, "request")
      } of the Postman collection "${s.collection}" (v${s.version}): no flow written, since none can be sent.`,
      ...setupLines(s, dir),
    ].join("\n") + "\n";
  }
  const lines = [...flowLines(s, dir), ...assertionLines(s), ...setupLines(s, dir)];
  const files = [
    s.varsFile ? ` --vars-file ${dir}/${s.varsFile}` : "",
    s.envFile ? ` --env-file ${dir}/${s.envFile}` : "",
  ].join("");
  lines.push(`Run: flowrun run ${dir}/ --jobs 1${files}`);
  return lines.join("\n") + "\n";
}

function flowLines(s: PostmanSummary, dir: string): string[] {
  const lines = [
    `Converted ${
      plural(s.requests, "request")
    } of the Postman collection "${s.collection}" (v${s.version}) into ${
      plural(s.flows.length, "flow")
    } in ${dir}/.`,
  ];
  for (const f of s.flows) {
    const merged = f.folders.length > 1
      ? ` (folders merged: later ones use values earlier ones capture or make)`
      : "";
    lines.push(`  ${f.file}: ${plural(f.steps, "step")}${merged}`);
  }
  return lines;
}

/** The totals, then each request that has a script, at most {@linkcode MAX_LISTED}. */
function assertionLines(s: PostmanSummary): string[] {
  const translated = s.reports.reduce((n, r) => n + r.translated, 0);
  const untranslated = s.reports.reduce((n, r) => n + r.untranslated, 0);
  const lines = [
    `Assertions: ${translated} translated, ${untranslated} untranslated (kept as comments beside their steps).`,
  ];
  const scripted = s.reports.filter((r) => r.translated + r.untranslated > 0);
  for (const r of scripted.slice(0, MAX_LISTED)) {
    const why = r.untranslated > 0 && r.why?.length ? ` (${r.why.join("; ")})` : "";
    lines.push(`  ${r.request}: ${r.translated} translated, ${r.untranslated} untranslated${why}`);
  }
  if (scripted.length > MAX_LISTED) {
    lines.push(`  and ${scripted.length - MAX_LISTED} more requests`);
  }
  return lines;
}

/** What to set, fill in or know before running. */
function setupLines(s: PostmanSummary, dir: string): string[] {
  const lines: string[] = [];
  const names = (list: string[]) => list.map((n) => `{{${n}}}`).join(", ");
  if (s.env.length > 0) {
    lines.push(`Set before running: ${s.env.map((e) => `${e.name} (${e.hint})`).join(", ")}.`);
  }
  lines.push(...readsAsWritten(s), ...derivedLines(s.derived ?? []), ...fixedLines(s.fixed ?? []));
  if (s.unset.length > 0) {
    lines.push(
      `No value in the collection or environment for ${
        names(s.unset)
      }: sent as written, as Postman does, unless set with --var NAME=value.`,
    );
  }
  lines.push(...dataLines(s, dir));
  if (s.notSent.length > 0) {
    lines.push(
      `Not sent, as in Newman, because a setNextRequest skips them: ${
        s.notSent.slice(0, MAX_NAMED).join(", ")
      }${s.notSent.length > MAX_NAMED ? `, and ${s.notSent.length - MAX_NAMED} more` : ""}.`,
    );
  }
  lines.push(...rewrittenLines(s.rewritten ?? []));
  if (s.unsendable.length > 0) {
    lines.push(
      `Not converted, since flowrun cannot send them: ${
        s.unsendable.slice(0, MAX_NAMED).join(", ")
      }${s.unsendable.length > MAX_NAMED ? `, and ${s.unsendable.length - MAX_NAMED} more` : ""}.`,
    );
  }
  if (s.oauth2Tokens > 0) {
    lines.push(
      `OAuth2: flowrun fetches ${
        plural(s.oauth2Tokens, "token")
      } itself, once per run (Newman sends the token saved in the collection), so the run sends ${
        plural(s.oauth2Tokens, "request")
      } more than Newman.`,
    );
  }
  if (s.randomized.length > 0) {
    lines.push(
      `Not in the shape Postman sends (dates as ISO 8601 times, the rest as random text): ${
        names(s.randomized)
      }.`,
    );
  }
  for (const p of s.placeholders) {
    lines.push(
      `Put the file the collection uploads at ${dir}/${p} (an empty placeholder is written${
        p.endsWith(".upload")
          ? `; sent as ${p.slice(p.lastIndexOf("/") + 1, -".upload".length)}`
          : ""
      }).`,
    );
  }
  return lines;
}

/** The data file's rows, each a run of every flow; or, without one, that the collection reads one. */
function dataLines(s: PostmanSummary, dir: string): string[] {
  if (s.data) {
    return [
      `Each flow runs once per row (${
        plural(s.data.rows, "row")
      } of ${s.data.path}, written to ${dir}/${s.data.file}), as Newman's iterations with -d; a row's captures do not carry to the next.`,
    ];
  }
  if (!s.wantsData) return [];
  return [
    "If Newman runs it with a data file (-d FILE), convert again with --iteration-data FILE: its rows give {{column}} and pm.iterationData.get(column).",
  ];
}

/** Sets not translated, with the requests that read them, and hosts sent with `http://`. */
/** The requests a pre-request script rewrites, which the flow sends as written (request_rewrite.ts). */
function rewrittenLines(r: string[]): string[] {
  if (r.length === 0) return [];
  return [
    `Sent as the collection holds them, though a pre-request script rewrites their body or URL in Postman: ${
      r.slice(0, MAX_NAMED).join(", ")
    }${r.length > MAX_NAMED ? `, and ${r.length - MAX_NAMED} more` : ""}.`,
  ];
}

/**
 * Text a script works out from the files' values when converting (`pw.charAt(0) + 1`): the flow
 * sends the result, so a `--var` of the value it came from, given when running, does not reach it.
 */
function derivedLines(derived: { name: string; from: string[]; by: string }[]): string[] {
  return derived.slice(0, MAX_NAMED).map((d) => {
    const from = d.from.map((n) => `{{${n}}}`).join(", ");
    const vars = d.from.map((n) => `--var ${varName(n)}=…`).join(" or ");
    return `Worked out when converting: the script of ${d.by} sets {{${d.name}}} from ${from} as the files give it, and the flow sends that text; ${vars} given when running does not change it: convert again with the new value in the files.`;
  });
}

/**
 * A random draw the flow takes at its least (`_.random(1, 30)` days on: one), the same in every
 * run, where Newman draws anew: a server that refuses a second booking of the same day refuses
 * the second run.
 */
function fixedLines(fixed: { name: string; by: string }[]): string[] {
  if (fixed.length === 0) return [];
  const named = fixed.slice(0, MAX_NAMED).map((f) => `{{${f.name}}} (${f.by})`).join(", ");
  const more = fixed.length > MAX_NAMED ? `, and ${fixed.length - MAX_NAMED} more` : "";
  return [
    `Not random as in Postman: the script draws a random count for ${named}${more}; the flow takes the least it can be, the same in every run (another can be given with --var ${
      varName(fixed[0].name)
    }=…).`,
  ];
}

/**
 * How to send what the script would have made (a value derived from a secret, known only when the
 * flow runs): each variable sent as written is a flow var, which `--var NAME=value` sets.
 */
function givenLine(broken: { name: string; partly?: boolean }[]): string[] {
  const asWritten = [...new Set(broken.filter((b) => !b.partly).map((b) => varName(b.name)))];
  if (asWritten.length === 0) return [];
  return [
    `A value for ${
      asWritten.length === 1 ? "it" : "each"
    } can be given when running, sent where the flow sends {{…}} as written: ${
      asWritten.slice(0, MAX_NAMED).map((n) => `--var ${n}=…`).join(", ")
    }${asWritten.length > MAX_NAMED ? `, and so on` : ""}.`,
  ];
}

/** The lines that set a broken variable, as ` (\`…\`)`: cut short, a summary is read whole. */
function saidBy(b: { line?: string }): string {
  if (!b.line) return "";
  const line = b.line.length > MAX_LINE ? `${b.line.slice(0, MAX_LINE - 1)}…` : b.line;
  return ` (\`${line}\`)`;
}

/** The longest statement a summary quotes. */
const MAX_LINE = 160;

/** A variable set in a way flowrun cannot express, or with a call Newman's sandbox lacks. */
function notExpressed(b: Broken, count: string, sends: string, readers: string): string {
  const lacks = b.line ? sandboxLacks(b.line) : undefined;
  // The script stops there in Newman too: the placeholder it sends is the flow's.
  return lacks
    ? `Not translated: the script of ${b.by} sets {{${b.name}}} with \`${lacks}\`, and Newman's sandbox has no \`${lacks}\`${
      saidBy(b)
    }: the script stops there with an error, so ${count} ${sends} it as written, as Newman does: read by ${readers}.`
    : `Not translated: the script of ${b.by} sets {{${b.name}}} in a way flowrun cannot express${
      saidBy(b)
    }, so ${count} ${sends} it as written (Postman sends what the script sets): read by ${readers}.`;
}

function readsAsWritten(s: PostmanSummary): string[] {
  const lines: string[] = [];
  for (const b of (s.broken ?? []).slice(0, MAX_NAMED)) {
    const readers = `${b.readers.slice(0, MAX_NAMED).join(", ")}${
      b.readers.length > MAX_NAMED ? `, and ${b.readers.length - MAX_NAMED} more` : ""
    }`;
    const count = plural(b.readers.length, "request");
    const one = b.readers.length === 1;
    lines.push(
      b.partly
        ? `Partly translated, possibly broken: the script of ${b.by} sets {{${b.name}}} in a way flowrun translates and also in one it cannot express, so ${count} may not read ${b.name} as Postman does (the flow has only the translated value): read by ${readers}.`
        : notExpressed(b, count, one ? "sends" : "send", readers),
    );
  }
  lines.push(...givenLine(s.broken ?? []));
  for (const name of s.schemeless ?? []) {
    lines.push(`{{${name}}} has no scheme: sent with http://, as Postman does.`);
  }
  return lines;
}
