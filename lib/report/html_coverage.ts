/**
 * The HTML report's OpenAPI coverage section: per document, the shares of
 * operations and documented responses exercised, a table of every
 * operation (exercised or not, each documented response, statuses the
 * document does not document) and the requests no operation serves.
 * Written on the server side: it reads without the page script.
 *
 * @module
 */
import type { OpenApiCoverage, OperationCoverage } from "../model/coverage.ts";
import { esc } from "./html_escape.ts";

/**
 * The coverage section, or "" for a run without coverage.
 *
 * @example
 * ```ts
 * import { coverageSection } from "./html_coverage.ts";
 * const html = coverageSection([{
 *   document: "api<1>.yaml",
 *   operations: { total: 1, exercised: 0, percent: 0 },
 *   responses: { total: 1, exercised: 0, percent: 0 },
 *   items: [{ method: "GET", path: "/a", exercised: false, responses: [{ status: "200", exercised: false }], undocumented: [] }],
 *   unmatched: [],
 * }]);
 * if (!html.includes("api&lt;1&gt;.yaml") || !html.includes("0 of 1 operations")) throw new Error(html);
 * if (coverageSection(undefined) !== "") throw new Error();
 * ```
 */
export function coverageSection(coverages: readonly OpenApiCoverage[] | undefined): string {
  if (!coverages || coverages.length === 0) return "";
  return `<section class="coverage" aria-labelledby="coverage-title">
<h2 id="coverage-title">OpenAPI coverage</h2>
${coverages.map(documentBlock).join("\n")}
</section>
`;
}

function documentBlock(c: OpenApiCoverage): string {
  const below = c.min !== undefined && c.operations.percent < c.min;
  const gate = c.min === undefined
    ? ""
    : ` <span class="badge st-${below ? "failed" : "passed"}">${
      below ? "✗ below" : "✓ meets"
    } --coverage-min ${c.min}</span>`;
  return `<details class="coverage-doc"${below ? " open" : ""}>
<summary><b class="mono">${
    esc(c.document)
  }</b>: ${c.operations.exercised} of ${c.operations.total} operations (${c.operations.percent} %), ${c.responses.exercised} of ${c.responses.total} documented responses (${c.responses.percent} %)${gate}</summary>
<table class="coverage-table">
<thead><tr><th scope="col">Operation</th><th scope="col">Exercised</th><th scope="col">Documented responses</th><th scope="col">Undocumented statuses</th></tr></thead>
<tbody>
${c.items.map(operationRow).join("\n")}
</tbody>
</table>
${unmatchedList(c)}${
    c.requests_omitted
      ? `<p class="notice">${c.requests_omitted} distinct requests past 100,000 were counted but not matched: the coverage may be low.</p>\n`
      : ""
  }</details>`;
}

function operationRow(item: OperationCoverage): string {
  const responses = item.responses.map((r) =>
    `<span class="chip ${r.exercised ? "st-passed" : "st-skipped"}" title="${
      r.exercised ? "exercised" : "not exercised"
    }">${r.exercised ? "✓" : "○"} ${esc(r.status)}</span>`
  ).join(" ");
  const undocumented = item.undocumented.map((s) => `<span class="chip st-failed">${s}</span>`)
    .join(" ");
  return `<tr class="${item.exercised ? "st-passed" : "st-skipped"}"><td class="mono">${
    esc(item.method)
  } ${esc(item.path)}</td><td>${item.exercised ? "✓ yes" : "○ no"}</td><td>${responses}</td><td>${
    undocumented || "—"
  }</td></tr>`;
}

function unmatchedList(c: OpenApiCoverage): string {
  if (c.unmatched.length === 0) return "";
  const more = c.unmatched_omitted ? `<li>… and ${c.unmatched_omitted} more</li>` : "";
  return `<h3>Requests no operation serves</h3>
<ul class="unmatched">${
    c.unmatched.map((u) => `<li class="mono">${esc(u.method)} ${esc(u.path)} ×${u.count}</li>`)
      .join("")
  }${more}</ul>
`;
}
