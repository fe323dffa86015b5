/**
 * `convert har` on two numbers equal on a fresh instance and named apart by the page. DAViCal's
 * web admin (docs/real-servers-har.md) numbers a new user's principal and its user record from
 * two sequences that both start at 1001: the create answers `principal_id` 1001, the user's page
 * links "Create Collection" as `…&user_no=1001`, and that form holds a hidden `user_no` 1001. Found
 * by value, `user_no` was sent as the create's `principal_id`: the first run passed, the second
 * (principal 1007, user 1002) made a collection for no user and got a 500. The stand-in numbers
 * principals by sevens and users by ones, as DAViCal's sequences run, and refuses a collection
 * for a user it does not have, so the flow must read each number where the page names it.
 */
import assert from "node:assert/strict";
import { runCliTwice } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8875";

const page = (body: string) => `<html><body>${body}</body></html>`;
const created = (principal: number) =>
  page(`<input type="hidden" value="${principal}" name="principal_id">Creating new Principal`);
const userPage = (principal: number, user: number) =>
  page(
    `<h1>Principal ${principal}</h1><a href="/admin.php?action=edit&amp;t=collection&amp;id=` +
      `&amp;user_no=${user}">Create Collection</a>`,
  );
const collectionForm = (user: number, q: string) =>
  page(
    `<form method="POST"><input type=${q}hidden${q} value=${q}${user}${q} name=${q}user_no${q}>` +
      `<input name="collection_name"></form>`,
  );

/** A calendar admin with DAViCal's two sequences; a collection needs a user that exists. */
function standIn(q: string) {
  const users = new Map<number, number>(); // principal → user
  const collections: number[] = [];
  let principal = 1001, user = 1001;
  const html = (body: string, status = 200) =>
    new Response(body, { status, headers: { "content-type": "text/html" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const t = url.searchParams.get("t");
    const form = req.method === "POST" ? new URLSearchParams(await req.text()) : undefined;
    if (t === "principal" && form) {
      users.set(principal, user++);
      principal += 7;
      return html(created(principal - 7));
    }
    if (t === "principal") {
      const id = Number(url.searchParams.get("id"));
      if (!users.has(id)) return html(page("No such principal"), 404);
      if (url.searchParams.get("subaction") === "delete") {
        users.delete(id);
        return html(page("Deleted"));
      }
      return html(userPage(id, users.get(id)!));
    }
    const owner = Number(form?.get("user_no") ?? url.searchParams.get("user_no"));
    if (![...users.values()].includes(owner)) return html(page("No such user"), 500);
    if (form) collections.push(owner);
    return html(form ? page("Collection created") : collectionForm(owner, q));
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    users,
    collections,
    close: () => server.shutdown(),
  };
}

function journey(q: string): string {
  const post = (url: string, body: string, html: string) => ({
    method: "POST",
    url,
    headers: [["Content-Type", "application/x-www-form-urlencoded"]] as [string, string][],
    mime: "application/x-www-form-urlencoded",
    body,
    html,
  });
  return harOf([
    post(`${AT}/admin.php?action=edit&t=principal`, "username=harbourmaster", created(1001)),
    { url: `${AT}/admin.php?action=edit&t=principal&id=1001`, html: userPage(1001, 1001) },
    {
      url: `${AT}/admin.php?action=edit&t=collection&id=&user_no=1001`,
      html: collectionForm(1001, q),
    },
    post(
      `${AT}/admin.php?action=edit&t=collection&id=&user_no=1001`,
      "user_no=1001&collection_name=tides",
      page("Collection created"),
    ),
    {
      url: `${AT}/admin.php?action=edit&t=principal&subaction=delete&id=1001`,
      html: page("Deleted"),
    },
  ]);
}

for (const q of ['"', "'"]) {
  Deno.test(`convert har: a number the page names user_no, equal to the create's principal_id, is read from the page, twice on one instance (${q})`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-named-on-page-" });
    const server = standIn(q);
    try {
      const { flow } = await convertHar(dir, journey(q));
      await runCliTwice(`${dir}/flow.yaml`, server.origin, flow);
      assert.deepEqual(server.collections, [1001, 1002], flow);
      assert.equal(server.users.size, 0, flow);
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
