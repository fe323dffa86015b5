/**
 * The summary `convert openapi` prints on stderr: the flows written, the
 * environment variables to set, every placeholder to fill in, and how to
 * run the suite with its coverage.
 *
 * @module
 */
import { plural, pluralWord } from "../../_util/plural.ts";
import type { OpenApiSummary } from "./convert.ts";
import { addedPath } from "./paths_hold_base.ts";
import { ADMIN_TOKEN } from "./for_admins.ts";

/** Where the flows went, and what the `--openapi` of the run line names. */
export interface SummaryPlaces {
  dir: string;
  /** The document for `--openapi`, as the user named it. */
  document: string;
  /** The bundle written for the `openapi:` checks, if the document was several files. */
  bundle?: string;
  /** The document (one file) was outside the folders a run of the flows may read: `bundle` is its copy. */
  outside?: boolean;
  /** The document was Swagger 2.0: `bundle` is its upgrade to OpenAPI 3.0. */
  upgraded?: boolean;
}

/**
 * The summary's text.
 *
 * @example
 * ```ts
 * import { formatOpenApiSummary } from "./summary.ts";
 * const text = formatOpenApiSummary({ title: "Pets", operations: 2, flows: [{ file: "pets.yaml", steps: 2, tag: "pets" }],
 *   basePath: "/v1", server: "https://x.test/v1", env: [{ name: "BASE_URL", what: "the API's origin" }],
 *   placeholders: [], optional: 1 }, { dir: "out", document: "api.yaml" });
 * if (!text.includes("2 operations") || !text.includes("BASE_URL")) throw new Error(text);
 * ```
 */
export function formatOpenApiSummary(s: OpenApiSummary, at: SummaryPlaces): string {
  const lines = [headline(s, at), ...s.flows.map(flowLine)];
  if (s.signIn) {
    lines.push(
      `  ${s.signIn.file}: ${
        plural(s.signIn.steps, "step")
      } (the sign-in, once per run: a setup flow, passed with --setup; the flows read its ${s.signIn.hands})`,
    );
  }
  if (s.inferred) {
    lines.push("Inferred (each value from the response of the operation that makes it):");
    for (const line of s.inferred) lines.push(`  ${line}`);
  }
  const bundle = bundleLine(at);
  if (bundle !== undefined) lines.push(bundle);
  lines.push("Set these environment variables:", ...s.env.map((env) => envLine(s, env)));
  lines.push(...placeholderLines(s));
  if (s.optional > 0) {
    lines.push(
      `${plural(s.optional, "optional parameter")} left out (named in a comment above each step).`,
    );
  }
  if (s.webhooks) lines.push(webhookLine(s.webhooks));
  if (s.stopping) {
    lines.push(
      `Left out ${plural(s.stopping.length, "operation")} that ${
        pluralWord(s.stopping.length, "stops", "stop")
      } the server (run ${pluralWord(s.stopping.length, "it", "them")} by hand): ${
        s.stopping.join(", ")
      }`,
    );
  }
  if (s.unsendable) lines.push(unsendableLine(s.unsendable));
  lines.push(...bodyLines(s));
  if (s.admins) lines.push(adminsLine(s.admins));
  for (const { why, operations } of s.ambiguous ?? []) {
    lines.push(
      `Left out ${plural(operations.length, "operation")} (${why}): ${operations.join(", ")}`,
    );
  }
  if (s.broken) {
    lines.push(
      `Left out ${plural(s.broken.length, "operation")} whose document names a $ref to nothing ` +
        `(fix the document to test ${pluralWord(s.broken.length, "it", "them")}): ${
          s.broken.join(", ")
        }`,
    );
  }
  const setup = s.signIn ? ` --setup ${at.dir}/${s.signIn.file}` : "";
  lines.push(`Run: flowrun run ${at.dir}${setup} --openapi ${at.document}`);
  return lines.join("\n") + "\n";
}

type SummaryFlow = OpenApiSummary["flows"][number];

/** The writes sent with no body, and those whose body the document describes no member of. */
function bodyLines(s: OpenApiSummary): string[] {
  const lines: string[] = [];
  if (s.bodiless) {
    lines.push(
      `Sent with no body, as the document gives none (a server that wants one answers 400 or 422 ` +
        `naming its members: add them to the step's body): ${s.bodiless.join(", ")}`,
    );
  }
  if (s.undescribed) {
    lines.push(
      `Sent with no member in the body, as the document describes none (an object schema with no ` +
        `property: a server that wants some answers 400, 422 or 500: add them to the step's body): ` +
        s.undescribed.join(", "),
    );
  }
  return lines;
}

/** The first line: what was converted into how many flows, and how they are grouped. */
function headline(s: OpenApiSummary, at: SummaryPlaces): string {
  return `Converted ${s.title}: ${plural(s.operations, "operation")} into ${
    plural(s.flows.length, "flow")
  } in ${at.dir}/ (one per tag${
    s.flows.some((f) => f.under !== undefined)
      ? "; untagged operations one per first path segment"
      : ""
  }).`;
}

/** One flow's line: its file, its steps, and which operations it holds. */
function flowLine(f: SummaryFlow): string {
  const what = f.tag !== undefined
    ? `tag "${f.tag}"`
    : f.under === undefined
    ? "untagged operations, named for the API"
    : `untagged operations under ${f.under}`;
  const added = f.added ? `; ${f.added} of them from other flows, for what it reads` : "";
  return `  ${f.file}: ${plural(f.steps, "step")} (${what}${added})`;
}

/** What the `openapi:` checks read when it is not the document itself (none when it is). */
function bundleLine(at: SummaryPlaces): string | undefined {
  if (at.bundle && at.upgraded) {
    return `The Swagger 2.0 document is upgraded to OpenAPI 3.0 in ${at.dir}/${at.bundle}, which the openapi: checks read.`;
  }
  if (at.bundle && at.outside) {
    return `The document is outside the folders \`flowrun run ${at.dir}\` may read: its copy ${at.dir}/${at.bundle} is what the openapi: checks read.`;
  }
  if (at.bundle) {
    return `The document's files are bundled into ${at.dir}/${at.bundle}, which the openapi: checks read.`;
  }
  return undefined;
}

/** One environment variable's line; `BASE_URL`'s names the document's server and base path. */
function envLine(s: OpenApiSummary, env: OpenApiSummary["env"][number]): string {
  const extra = env.name === "BASE_URL" && s.server !== undefined
    ? ` (the document's first server is ${s.server}; the flows add ${
      addedPath(s.server, s.basePath)
    })`
    : "";
  return `  ${env.name}: ${env.what}${extra}`;
}

/** The placeholders to fill in, one a line, or the line saying there are none. */
function placeholderLines(s: OpenApiSummary): string[] {
  if (s.placeholders.length === 0) return ["No placeholders to fill in."];
  return [
    `Fill in ${plural(s.placeholders.length, "placeholder")}:`,
    ...s.placeholders.map((p) => `  ${p.file}: ${p.what}`),
  ];
}

/** The webhook operations left out (the first five named): the API sends them, a suite does not. */
function webhookLine(webhooks: NonNullable<OpenApiSummary["webhooks"]>): string {
  const shown = webhooks.names.slice(0, 5).join(", ");
  const more = webhooks.names.length > 5 ? `, and ${webhooks.names.length - 5} more` : "";
  return `${
    plural(webhooks.operations, "webhook operation")
  } not converted (${shown}${more}): the API sends ${
    pluralWord(webhooks.operations, "it", "them")
  }; a suite does not.`;
}

/** The operations left out because flowrun cannot send their methods (TRACE), all named. */
function unsendableLine(ops: string[]): string {
  const methods = [...new Set(ops.map((op) => op.split(" ")[0]))].join(" and ");
  return `Left out ${
    plural(ops.length, "operation")
  } flowrun cannot send (the HTTP client forbids ${methods}; test ${
    pluralWord(ops.length, "it", "them")
  } with another tool): ${ops.join(", ")}`;
}

/** The administrators' operations: what says so, and the token that runs them (for_admins.ts). */
function adminsLine(admins: [string, string][]): string {
  const [them, they] = admins.length === 1 ? ["it", "it is"] : ["them", "they are"];
  return `Only an administrator may call ${plural(admins.length, "operation")} (the document ` +
    `says so): set ${ADMIN_TOKEN} to an administrator's token to run ${them} (the run's own ` +
    `account is sent to the others); without it ${they} skipped: ${
      admins.map(([op, why]) => `${op} (${why})`).join(", ")
    }`;
}
