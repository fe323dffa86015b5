import assert from "node:assert/strict";
import { graphqlIdProducer, noteGraphqlIds } from "../../../lib/convert/correlate/graphql_ids.ts";
import { emptyCorrelator } from "../../../lib/convert/correlate/state.ts";
import type { Step } from "../../../lib/convert/model.ts";

const URL_ = new URL("http://a.test/graphql");

/** A step that sent `query` and, when `json` is given, was answered with it. */
function step(query: string, json?: unknown, status = 200): Step {
  const bodyText = JSON.stringify({ query });
  const last = { method: "POST", status, url: URL_, bodyText, hasJson: json !== undefined, json };
  return { last } as unknown as Step;
}

const CREATE = "mutation CreateShelf { createShelf(input: $input) { id } }";

Deno.test("graphql ids: a mutation's typed row is sent by a key named for its type and by a bare id to a root field named for it", () => {
  const c = emptyCorrelator("a", true);
  noteGraphqlIds(c, step(CREATE, { data: { createShelf: { id: "1", __typename: "Shelf" } } }));
  const later = (q: string) => step(q);
  assert.ok(graphqlIdProducer(c, ["", "shelfId"], "1", 5, later("query { books { id } }")));
  assert.ok(
    graphqlIdProducer(c, ["", "id"], "1", 2, later("query Q($id: ID!) { shelf(id: $id) { id } }")),
  );
  assert.ok(
    graphqlIdProducer(
      c,
      ["", "ids"],
      "1",
      2,
      later("mutation { deleteShelves(ids: $ids) { result } }"),
    ),
  );
  assert.equal(
    graphqlIdProducer(c, ["", "roomId"], "1", 3, later("mutation { createShelf { id } }")),
    undefined,
  );
  assert.equal(
    graphqlIdProducer(c, ["", "id"], "1", 4, later("mutation { updateShelf { id } }")),
    undefined,
  );
  assert.equal(
    graphqlIdProducer(c, ["", "id"], "1", 2, later("query { shelfBook(id: $id) { id } }")),
    undefined,
  );
  const books = later("query { books { id } }");
  assert.ok(graphqlIdProducer(c, ["shelfId", "eq"], "1", 5, books));
  assert.equal(graphqlIdProducer(c, ["roomId", "eq"], "1", 5, books), undefined);
  assert.equal(graphqlIdProducer(c, ["shelfId", "take"], "1", 5, books), undefined);
  assert.equal(
    graphqlIdProducer(c, ["", "shelfId"], "2", 3, later("query { books { id } }")),
    undefined,
  );
});

Deno.test("graphql ids: a query's answer, an answer with errors and a failed call note nothing", () => {
  const c = emptyCorrelator("a", true);
  const row = { data: { createShelf: { id: "1", __typename: "Shelf" } } };
  noteGraphqlIds(c, step("query { createShelf { id } }", row));
  noteGraphqlIds(c, step(CREATE, { ...row, errors: [{ message: "no" }] }));
  noteGraphqlIds(c, step(CREATE, row, 500));
  assert.equal(c.members.size, 0);
});
