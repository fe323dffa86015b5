/**
 * `convert openapi` on a create whose answer the document does not
 * describe (`201: Book created`), while the item's schema describes
 * `book_id` as "the unique identifier of the book": the answer holds
 * `{message, data: {book_id, …}}` (a course project's Express book API,
 * measured by hand, its `livre_id` "l'identifiant unique du livre").
 * Before, `{id}` of `/api/books/{id}` was searched for as `id` anywhere in
 * the answer, found nothing, and the read and delete were skipped. Now the
 * member the create's own schema describes as the identifier is searched
 * first; `writer_id`, an identifier of something else, is not. The
 * stand-in is the project's app (openapi_jsdoc_document.ts).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite } from "../support/openapi_suite.ts";
import { jsdocDocument, jsdocStandIn, type Seen } from "./openapi_jsdoc_document.ts";

Deno.test("convert openapi: an undescribed answer is searched for the identifier the item's schema describes", async () => {
  const seen: Seen = [];
  const { runs, summary } = await convertAndRunSuite(
    jsdocDocument(),
    jsdocStandIn(seen, { register: true }),
  );
  const out = summary + runs[0].stdout;
  assert.match(summary, /\['book_id','id'\]/, out);
  assert.ok(seen.some((r) => r.method === "GET" && r.path === "/api/books/1"), out);
  assert.ok(seen.some((r) => r.method === "DELETE" && r.path === "/api/books/1"), out);
  assert.equal(runs[0].code, 0, out);
});
