/**
 * The summary `convert openapi` prints on stderr: the flows written, the
 * environment variables to set, every placeholder to fill in, and how to
 * run the suite with its coverage.
 *
 * @module
 */
import { plural, pluralWord } from "../../_util/plural.ts";
import type { OpenApiSummary } from "./convert.ts";

/** Where the flows went, and what the `--openapi` of the run line names. */
export interface SummaryPlaces {
  dir: string;
  /** The document for `--openapi`, as the user named it. */
  document: string;
  /** The bundle written for the `openapi:` checks, if the document was several files. */
  bundle?: string;
  /** The document (one file) was outside the folders a run of the flows may read: `bundle` is its copy. */
  outside?: boolean;
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
  const lines = [
    `Converted ${s.title}: ${plural(s.operations, "operation")} into ${
      plural(s.flows.length, "flow")
    } in ${at.dir}/ (one per tag${
      s.flows.some((f) => f.under !== undefined)
        ? "; untagged operations one per first path segment"
        : ""
    }).`,
  ];
  for (const f of s.flows) {
    const what = f.tag !== undefined
      ? `tag "${f.tag}"`
      : f.under === undefined
      ? "untagged operations, named for the API"
      : `untagged operations under ${f.under}`;
    const added = f.added ? `; ${f.added} of them from other flows, for what it reads` : "";
    lines.push(`  ${f.file}: ${plural(f.steps, "step")} (${what}${added})`);
  }
  if (s.inferred) {
    lines.push("Inferred (each value from the response of the operation that makes it):");
    for (const line of s.inferred) lines.push(`  ${line}`);
  }
  if (at.bundle && at.outside) {
    lines.push(
      `The document is outside the folders \`flowrun run ${at.dir}\` may read: its copy ${at.dir}/${at.bundle} is what the openapi: checks read.`,
    );
  } else if (at.bundle) {
    lines.push(
      `The document's files are bundled into ${at.dir}/${at.bundle}, which the openapi: checks read.`,
    );
  }
  lines.push("Set these environment variables:");
  for (const env of s.env) {
    const extra = env.name === "BASE_URL" && s.server !== undefined
      ? ` (the document's first server is ${s.server}; the flows add ${s.basePath || "no path"})`
      : "";
    lines.push(`  ${env.name}: ${env.what}${extra}`);
  }
  if (s.placeholders.length > 0) {
    lines.push(`Fill in ${plural(s.placeholders.length, "placeholder")}:`);
    for (const p of s.placeholders) lines.push(`  ${p.file}: ${p.what}`);
  } else lines.push("No placeholders to fill in.");
  if (s.optional > 0) {
    lines.push(
      `${plural(s.optional, "optional parameter")} left out (named in a comment above each step).`,
    );
  }
  if (s.webhooks) {
    const shown = s.webhooks.names.slice(0, 5).join(", ");
    const more = s.webhooks.names.length > 5 ? `, and ${s.webhooks.names.length - 5} more` : "";
    lines.push(
      `${
        plural(s.webhooks.operations, "webhook operation")
      } not converted (${shown}${more}): the API sends ${
        pluralWord(s.webhooks.operations, "it", "them")
      }; a suite does not.`,
    );
  }
  lines.push(`Run: flowrun run ${at.dir} --openapi ${at.document}`);
  return lines.join("\n") + "\n";
}
