/**
 * `convertCurl`: API reference pages create an item with a POST to a
 * collection (`<shop-url>/api/items -d '{"name": "lamp"}'`) and then open it
 * as `<shop-url>/api/items/:itemName` or `…/notes/:note-id`. The placeholder
 * names the item of the collection the earlier command created, and its last
 * word names the field that identifies it: the value the create sent in that
 * field (`name: lamp`), else what the create's answer holds there (`id`),
 * captured from that step. Only a collection an earlier command POSTed to;
 * any other placeholder is a value to set, as before. Commands written here
 * in the shape Unleash's API pages print them.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const command = (verb: string, path: string, body?: string) =>
  `curl -H "Content-Type: application/json" \\
     -X ${verb} \\${body ? `\n     -d '${body}' \\` : ""}
     <shop-url>/${path}`;

const TEXT = [
  command("POST", "api/shops/:shopId/items", '{"name": "lamp", "price": 3}'),
  command("GET", "api/shops/:shopId/items/:itemName"),
  command("POST", "api/shops/:shopId/items/:itemName/notes", '{"text": "fragile"}'),
  command("PUT", "api/shops/:shopId/items/:itemName/notes/:note-id", '{"text": "very fragile"}'),
  command("DELETE", "api/shops/:shopId/items/:itemName/notes/:noteId"),
].join("\n\n") + "\n";

Deno.test("a created item's placeholder is the field the create sent, or its answer's", () => {
  const { yaml, summary } = convertCurl(TEXT);
  assert.deepEqual(summary.env, ["SHOP_URL", "SHOP_ID"], yaml);
  // The name the create sent, one var for the body and the paths that open the item.
  assert.match(yaml, /item_name: lamp\n/, yaml);
  assert.match(
    yaml,
    /url: \$\{vars\.base_url\}\/api\/shops\/\$\{ENV\.SHOP_ID\}\/items\/\$\{vars\.item_name\}\n/,
    yaml,
  );
  assert.match(yaml, /capture:\n {6}note_id: \$\.json\.id\n/, yaml);
  assert.match(yaml, /notes\/\$\{steps\.create_item_note\.capture\.note_id\}\n/, yaml);
});

Deno.test("a placeholder under a collection no command created is a value to set", () => {
  const { summary } = convertCurl(
    `${command("GET", "api/shops/:shopId/items/:itemName")}\n\n${
      command("POST", "api/shops/:shopId/items", '{"name": "lamp"}')
    }\n`,
  );
  assert.deepEqual(summary.env, ["SHOP_URL", "SHOP_ID", "ITEM_NAME"]);
});

Deno.test("the flow opens what the server made, run against a server", async () => {
  const notes = new Map<string, string>();
  const seen: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      seen.push(`${req.method} ${path}`);
      if (req.method === "POST" && path.endsWith("/notes")) {
        const id = `n-${crypto.randomUUID()}`;
        notes.set(id, (await req.json()).text);
        return Response.json({ id }, { status: 201 });
      }
      const note = /\/notes\/([^/]+)$/.exec(path)?.[1];
      if (note !== undefined) {
        return notes.has(note) ? Response.json({ id: note }) : new Response(null, { status: 404 });
      }
      if (req.method === "POST") return Response.json({ name: "lamp" }, { status: 201 });
      return path.endsWith("/items/lamp") ? Response.json({}) : new Response(null, { status: 404 });
    },
  );
  await withCurlFlow(TEXT, async ({ runFlow }) => {
    const env = { SHOP_URL: `http://127.0.0.1:${server.addr.port}`, SHOP_ID: "main" };
    const run = await runFlow(env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(seen.length, 5, seen.join("\n"));
  });
});
