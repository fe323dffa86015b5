/**
 * `convert har` on a GraphQL admin API (Vendure's, docs/real-servers.md): every call is
 * `POST /graphql`, and a create answers the new row's id as a GraphQL `ID`, a string of digits,
 * beside its `__typename`: `{"data": {"createShelf": {"id": "1", "__typename": "Shelf"}}}`.
 * Later calls send it as `variables.input.shelfId`, as `variables.id` of `shelf(id: $id)`, as
 * `variables.input.id` of `updateShelf(input: $input)` and in `ids` of
 * `deleteShelves(ids: $ids)`, and as a list filter's operand (`filter: {shelfId: {eq: "1"}}`). Every create goes to the one path, so the path rules cannot tell
 * whose row a "1" is; these were sent as recorded: right on a fresh server by luck, and a
 * second run created a book on the first run's shelf and updated and deleted the first run's.
 *
 * The evidence (correlate/graphql_ids.ts): the answer's `__typename` names the row's type; a
 * later key named for it (`shelfId`) sends it, and a bare `id`/`ids` near the top of the
 * variables does when the operation's root field is named for the type (`updateShelf`,
 * `shelf`, `deleteShelves`), or a filter's operator (`eq`, `_eq`, `equals`, `in`) under such a
 * key does. The other side: `roomId: "1"` (no Room was created) and the id of
 * a nested translation (`translations[0].id`) stay as recorded.
 */
import assert from "node:assert/strict";
import { harOf } from "../support/har_records.ts";
import { passesTwice } from "../support/form_pages.ts";

const ORIGIN = "http://127.0.0.1:3000";

/** A GraphQL server whose shelves and books keep counting; each act must be on the newest shelf. */
function server() {
  let shelves = 0;
  let books = 0;
  const errors: string[] = [];
  const app = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { query, variables: v } = await req.json();
    const field = /\{\s*(\w+)/.exec(query)?.[1];
    const own = String(shelves);
    const refuse = (what: string) => {
      errors.push(`${field}: ${what}`);
      return Response.json({ errors: [{ message: what }], data: null });
    };
    const shelf = (id: string) => ({ data: { [field!]: { id, __typename: "Shelf" } } });
    if (field === "createShelf") {
      if (v.input.roomId !== "1") return refuse(`room ${v.input.roomId}`);
      return Response.json(shelf(String(++shelves)));
    }
    if (field === "createBook") {
      if (v.input.shelfId !== own) return refuse(`shelf ${v.input.shelfId}`);
      return Response.json({ data: { createBook: { id: String(++books), __typename: "Book" } } });
    }
    if (field === "books") {
      const eq = v.options.filter._and[0].shelfId.eq;
      return eq === own ? Response.json({ data: { books: { items: [] } } }) : refuse(`eq ${eq}`);
    }
    if (field === "shelf") return v.id === own ? Response.json(shelf(own)) : refuse(`id ${v.id}`);
    if (field === "updateShelf") {
      if (v.input.id !== own) return refuse(`id ${v.input.id}`);
      if (v.input.translations[0].id !== "1") return refuse("translation");
      return Response.json(shelf(own));
    }
    if (field === "deleteShelves") {
      if (JSON.stringify(v.ids) !== JSON.stringify([own])) return refuse(`ids ${v.ids}`);
      return Response.json({ data: { deleteShelves: [{ result: "DELETED" }] } });
    }
    return refuse("unknown");
  });
  return { origin: `http://127.0.0.1:${app.addr.port}`, errors, close: () => app.shutdown() };
}

/** One GraphQL call and its answer. */
function call(operation: string, query: string, variables: unknown, data: unknown) {
  return {
    method: "POST",
    url: `${ORIGIN}/graphql`,
    mime: "application/json",
    headers: [["Content-Type", "application/json"]] as [string, string][],
    body: JSON.stringify({ operationName: operation, variables, query }),
    json: { data },
  };
}

/** The journey on a fresh server: a shelf, a book on it, its page, its edit, its delete. */
function recording(): string {
  const shelf = { id: "1", __typename: "Shelf" };
  return harOf([
    call(
      "CreateShelf",
      "mutation CreateShelf($input: CreateShelfInput!) {\n  createShelf(input: $input) { id __typename }\n}",
      { input: { name: "Oak", roomId: "1" } },
      { createShelf: shelf },
    ),
    call(
      "CreateBook",
      "mutation CreateBook($input: CreateBookInput!) {\n  createBook(input: $input) { id __typename }\n}",
      { input: { title: "Tides", shelfId: "1" } },
      { createBook: { id: "1", __typename: "Book" } },
    ),
    call(
      "ListBooks",
      "query ListBooks($options: BookListOptions!) {\n  books(options: $options) { items { id } }\n}",
      { options: { take: 10, filter: { _and: [{ shelfId: { eq: "1" } }] } } },
      { books: { items: [{ id: "1" }] } },
    ),
    call(
      "GetShelf",
      "query GetShelf($id: ID!) {\n  shelf(id: $id) { id __typename }\n}",
      { id: "1" },
      { shelf },
    ),
    call(
      "UpdateShelf",
      "mutation UpdateShelf($input: UpdateShelfInput!) {\n  updateShelf(input: $input) { id __typename }\n}",
      { input: { id: "1", translations: [{ id: "1", name: "Oak, waxed" }] } },
      { updateShelf: shelf },
    ),
    call(
      "DeleteShelves",
      "mutation DeleteShelves($ids: [ID!]!) {\n  deleteShelves(ids: $ids) { result }\n}",
      { ids: ["1"] },
      { deleteShelves: [{ result: "DELETED" }] },
    ),
  ]);
}

Deno.test("convert har: a GraphQL ID a create answered beside its __typename is sent where a key is named for the type, as a filter operand under such a key, and where a bare id goes to a root field named for it; an id of an uncreated type and a nested translation's id stay; twice on one server", async () => {
  const app = server();
  try {
    await passesTwice(recording(), app.origin, (flow) => {
      assert.match(flow, /roomId: "1"/, flow);
    });
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
