/**
 * `convert openapi` on an id whose noun no path spells: a lending API makes a
 * loan at `POST /lend` (its answer the schema `Loan`, with `id`) and ends it at
 * `POST /give-back/{loan_id}`. No collection is named `loans`, so nothing was
 * read for `{loan_id}`: the summary asked for a placeholder, and run as it
 * printed, the return was sent `/give-back/1` and refused 404 (found on a
 * FastAPI library API, 2026-12-01: `POST /borrow` answering `Borrowing`,
 * `POST /return/{borrowing_id}`).
 *
 * What the converter does (answer_named.ts): an id parameter named for a noun
 * (`loan` of `loan_id`) is read from the one POST whose success answer's
 * schema is named for that noun (the component `Loan`, or its `title`),
 * reading its member of the parameter's name, else its `id`. Two POSTs
 * answering it (the return answers a `Loan` too, but takes the id itself and
 * is not counted) leave it unread. Run twice on one stand-in that keeps loans.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

function document() {
  const loan = { $ref: "#/components/schemas/Loan" };
  const answer = (description: string) => ({
    description,
    content: { "application/json": { schema: loan } },
  });
  const body = {
    required: true,
    content: { "application/json": { schema: { $ref: "#/components/schemas/LoanCreate" } } },
  };
  return {
    openapi: "3.0.2",
    info: { title: "Lending", version: "1" },
    paths: {
      "/lend": {
        post: { tags: ["loans"], requestBody: body, responses: { "200": answer("Made") } },
      },
      "/give-back/{loan_id}": {
        post: {
          tags: ["loans"],
          parameters: [{
            name: "loan_id",
            in: "path",
            required: true,
            schema: { type: "integer" },
          }],
          responses: { "200": answer("Ended") },
        },
      },
    },
    components: {
      schemas: {
        LoanCreate: {
          title: "LoanCreate",
          type: "object",
          required: ["borrower"],
          properties: { borrower: { type: "string" } },
        },
        Loan: {
          title: "Loan",
          type: "object",
          required: ["id", "borrower"],
          properties: { id: { type: "integer" }, borrower: { type: "string" } },
        },
      },
    },
  };
}

function server() {
  const loans = new Map<number, { id: number; borrower: string }>();
  return serveStandIn(async (req) => {
    const url = new URL(req.url);
    if (req.method === "POST" && url.pathname === "/lend") {
      const body = await req.json().catch(() => ({}));
      const loan = { id: loans.size + 1, borrower: String(body?.borrower) };
      loans.set(loan.id, loan);
      return Response.json(loan);
    }
    const back = /^\/give-back\/(\d+)$/.exec(url.pathname);
    const loan = back ? loans.get(Number(back[1])) : undefined;
    if (req.method === "POST" && loan) return Response.json(loan);
    return Response.json({ detail: "Loan not found" }, { status: 404 });
  });
}

Deno.test("convert openapi: an id read from the one POST whose answer is named for its noun, twice on one server", async () => {
  const { runs, summary } = await convertAndRunSuite(document(), server(), { runs: 2 });
  assert.match(
    summary,
    /\{loan_id\} of POST \/give-back\/\{loan_id\} ← POST \/lend \$\.json\.id/,
    summary,
  );
  assert.doesNotMatch(summary, /Fill in/, summary);
  for (const run of runs) {
    assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /2 steps?: 2 passed/, run.stdout);
  }
});
